# syntax=docker/dockerfile:1
FROM node:24-slim

ENV NODE_ENV=production \
    PORT=6000
WORKDIR /app

# Production dependencies only, exactly as locked. The `node` devDependency (the pinned runtime for
# npm scripts on developer machines) is not needed: the image itself is Node 24. The embedded local
# stack's packages (natural, mercurius) are development dependencies too, so the image runs with
# every party's address configured (ENVIRONMENT=qa|staging|prod); test/e2e/production-dependencies.test.ts
# checks that such a process loads nothing `--omit=dev` leaves out.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY config ./config
COPY schemas ./schemas
COPY steps ./steps
COPY src ./src

# DATA_DIR (default ./data): the local handoff outbox keeps its SQLite file here (mount a persistent
# volume on it), and so does the embedded local stack (ENVIRONMENT=local).
RUN mkdir -p /app/data && chown node:node /app/data
USER node

EXPOSE 6000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 6000) + '/heartbeat').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# exec form: node is PID 1 and receives SIGTERM directly for the graceful shutdown.
CMD ["node", "src/server.ts"]
