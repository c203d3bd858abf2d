# syntax=docker/dockerfile:1
# Two images from one file:
#   docker build -t chat-adapter .                            the service (default: the last stage)
#   docker build --target parties -t chat-adapter-parties .   the embedded reference parties alone
FROM node:24-slim AS base
WORKDIR /app
COPY package.json package-lock.json .npmrc ./

# The reference parties need the development dependencies (natural, mercurius); no install scripts:
# the `node` devDependency's download of a Node binary is not needed, the image is Node 24.
FROM base AS parties
RUN npm ci --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY config ./config
COPY schemas ./schemas
COPY src ./src
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV LOCAL_STACK_BASE_PORT=6100 HOST=0.0.0.0 LOCAL_DATA_DIR=/app/data
EXPOSE 6101 6102 6103 6104 6105
CMD ["node", "src/local/serve-parties.ts"]

# The service as JavaScript (npm run build: dist/, types erased, its files beside it). The image
# runs it, not the .ts sources: Node's type stripping would keep its own TypeScript compiler in
# memory, about 20 MiB of an idle instance (docs/performance.md).
FROM base AS build
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY config ./config
COPY schemas ./schemas
COPY steps ./steps
COPY src ./src
COPY scripts/build.ts ./scripts/build.ts
RUN node scripts/build.ts

FROM base AS service
ENV NODE_ENV=production \
    PORT=6000
# Production dependencies only, exactly as locked. The `node` devDependency (the pinned runtime for
# npm scripts on developer machines) is not needed: the image itself is Node 24. The embedded local
# stack's packages (natural, mercurius) are development dependencies too, so this image runs with
# every party's address configured (ENVIRONMENT=qa|staging|prod); test/e2e/production-dependencies.test.ts
# checks that such a process loads nothing `--omit=dev` leaves out.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY --from=build /app/dist ./dist

# DATA_DIR (default ./data): the local handoff outbox keeps its SQLite file here (mount a persistent
# volume on it); with REDIS_URL it is the fallback while Redis is unavailable.
RUN mkdir -p /app/data && chown node:node /app/data
USER node

EXPOSE 6000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 6000) + '/heartbeat').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# exec form: node is PID 1 and receives SIGTERM directly for the graceful shutdown.
# A young generation of at most 32 MiB per semi-space (V8's default on a large host lets it grow to
# 64): with pretenuring off (below), 32 gave less CPU and a shorter p99 than 16 for about 15 MiB more
# peak memory (docs/performance.md). V8's gc() under a
# name of its own: one memory-reducing collection after start-up (src/runtime/release-start-up-memory.ts).
# A ceiling for the old generation of 1.5 GiB: below V8's default on a large host (about 4 GiB)
# V8 grows the heap by at most about 1.8x of what a collection left between collections instead of
# up to 4x: peak memory under load about 300 -> 245 MiB for a few percent more CPU
# (docs/performance.md). In NODE_OPTIONS so that a deployment with a smaller memory limit can give a lower
# ceiling (deploy/kubernetes does).
# No allocation-site pretenuring: V8 saw the objects of the chats in flight survive a scavenge and
# began allocating them straight into the old generation, where, once dead, they keep the younger
# objects they point to alive until the next major collection: two to three times the promoted
# memory per chat, 5..20 % more CPU and a longer p99 (docs/performance.md). V8 flags are not
# accepted in NODE_OPTIONS, so it is on the command line. Same flags as `npm start`.
ENV NODE_OPTIONS=--max-old-space-size=1536
CMD ["node", "--max-semi-space-size=32", "--no-allocation-site-pretenuring", "--expose-gc-as=chatAdapterStartUpGc", "dist/src/server.js"]
