# syntax=docker/dockerfile:1
# Two images from one file:
#   docker build -t chat-adapter .                            the service (default: the last stage)
#   docker build --target parties -t chat-adapter-parties .   the embedded reference parties alone
#
# Behind a network that re-signs TLS (a corporate proxy), npm in the build stages must trust that
# CA: put its PEM bundle in the build context as `build-ca.pem` and build with
#   --build-arg NODE_EXTRA_CA_CERTS=/app/build-ca.pem
# Only the dependency stage sees the file; neither image contains it nor the variable
# (both start again from node:24-slim and copy what was installed).
FROM node:24-slim AS deps
WORKDIR /app
ARG NODE_EXTRA_CA_CERTS
# `build-ca.pe[m]`: a pattern, so that the build works without the file.
COPY package.json package-lock.json .npmrc build-ca.pe[m] ./
# Every dependency, development ones included (the reference parties need natural and mercurius,
# the build needs typescript); no install scripts: the `node` devDependency's download of a Node
# binary is not needed, the image is Node 24.
RUN npm ci --ignore-scripts --no-audit --no-fund

# Production dependencies only, exactly as locked (no second download). The embedded local stack's
# packages (natural, mercurius) are development dependencies, so the service image runs with every
# party's address configured (ENVIRONMENT=qa|staging|prod); test/e2e/production-dependencies.test.ts
# checks that such a process loads nothing `--omit=dev` leaves out. Optional packages go too: pg and
# redis are in the lock only as optional peers of bullmq (which uses neither: it speaks ioredis), kept
# by `--omit=dev` alone because natural needs them; the other optional ones are msgpackr's native
# speed-ups, whose pure JavaScript fallback bullmq uses instead.
FROM deps AS production-deps
RUN npm prune --omit=dev --omit=optional --no-audit --no-fund

# The service as JavaScript (npm run build: dist/, types erased, its files beside it). The image
# runs it, not the .ts sources: Node's type stripping would keep its own TypeScript compiler in
# memory, about 20 MiB of an idle instance (README, Performance).
FROM deps AS build
COPY tsconfig.json tsconfig.build.json ./
COPY config ./config
COPY schemas ./schemas
COPY steps ./steps
COPY src ./src
COPY scripts/build.ts ./scripts/build.ts
RUN node scripts/build.ts

FROM node:24-slim AS parties
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY --from=deps /app/node_modules ./node_modules
COPY config ./config
COPY schemas ./schemas
COPY src ./src
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV LOCAL_STACK_BASE_PORT=6100 HOST=0.0.0.0 LOCAL_DATA_DIR=/app/data
EXPOSE 6101 6102 6103 6104 6105
CMD ["node", "src/local/serve-parties.ts"]

FROM node:24-slim AS service
WORKDIR /app
ENV NODE_ENV=production \
    PORT=6000
COPY package.json package-lock.json .npmrc ./
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The health check: node:http, not fetch(), because the fetch standard lists 6000 as a "bad port"
# and Node's fetch() refuses to connect to it.
COPY deploy/image/healthcheck.mjs ./healthcheck.mjs

# DATA_DIR (default ./data): the local handoff outbox keeps its SQLite file here (mount a persistent
# volume on it); with REDIS_URL it is the fallback while Redis is unavailable.
RUN mkdir -p /app/data && chown node:node /app/data
USER node

EXPOSE 6000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "healthcheck.mjs"]

# exec form: node is PID 1 and receives SIGTERM directly for the graceful shutdown.
# A young generation of at most 32 MiB per semi-space (V8's default on a large host lets it grow to
# 64): with pretenuring off (below), 32 gave less CPU and a shorter p99 than 16 for about 15 MiB more
# peak memory (README, Performance). V8's gc() under a
# name of its own: one memory-reducing collection after start-up (src/runtime/release-start-up-memory.ts).
# A ceiling for the old generation of 1.5 GiB: below V8's default on a large host (about 4 GiB)
# V8 grows the heap by at most about 1.8x of what a collection left between collections instead of
# up to 4x: peak memory under load about 300 -> 245 MiB for a few percent more CPU (README,
# Performance). In NODE_OPTIONS so that a deployment with a smaller memory limit can give a lower
# ceiling (deploy/kubernetes does).
# No allocation-site pretenuring: V8 saw the objects of the chats in flight survive a scavenge and
# began allocating them straight into the old generation, where, once dead, they keep the younger
# objects they point to alive until the next major collection: two to three times the promoted
# memory per chat, 5..20 % more CPU and a longer p99 (README, Performance). V8 flags are not
# accepted in NODE_OPTIONS, so it is on the command line. Same flags as `npm start`.
ENV NODE_OPTIONS=--max-old-space-size=1536
CMD ["node", "--max-semi-space-size=32", "--no-allocation-site-pretenuring", "--expose-gc-as=chatAdapterStartUpGc", "dist/src/server.js"]
