import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { composeService, type ComposeOptions } from '../../src/compose.ts';
import type { Config } from '../../src/config/config.schema.ts';
import type { ChatGuards } from '../../src/http/chat-plugin.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { Deps } from '../../src/pipeline/ports.ts';
import { createLogger } from '../../src/telemetry/logger.ts';
import type { Outbox } from '../../src/outbox/outbox.ts';
import type { Metrics } from '../../src/telemetry/metrics.ts';
import { engineReply } from './fixtures.ts';
import { sendJson, startStub, type RecordedRequest, type StubServer } from './stub-server.ts';

export const GRAPHQL_AUTHORIZATION = 'Bearer env-AUTH-secret-123';
export const GRAPHQL_ENV_API_KEY = 'env-api-KEY-secret-456';

export interface Stubs {
  engine: StubServer;
  graphql: StubServer;
  handoff: StubServer;
  translate: StubServer;
  propertyApi: StubServer;
}

/** Every party's address on its stub, and the GraphQL secrets: the environment of a service on the stubs. */
export function stubPartiesEnv(stubs: Stubs): Record<string, string> {
  return {
    ENGINE_URL: stubs.engine.url,
    GRAPHQL_URL: `${stubs.graphql.url}/graphql`,
    HANDOFF_URL: stubs.handoff.url,
    TRANSLATE_URL: stubs.translate.url,
    PROPERTY_API_URL: stubs.propertyApi.url,
    GRAPHQL_AUTHORIZATION,
    GRAPHQL_API_KEY: GRAPHQL_ENV_API_KEY,
  };
}

/** A GraphQL API stub: numbered messages, idempotent on clientMessageKey, echoes conversation updates. */
export function graphqlStubHandler(byKey = new Map<string, string>()) {
  let next = 1000 + byKey.size;
  return (req: RecordedRequest, res: Parameters<Parameters<typeof startStub>[0]>[1]) => {
    const body = req.body as { query: string; variables: { input: Record<string, unknown> } };
    const input = body.variables.input;
    if (body.query.includes('createServiceMessage')) {
      const key = String(input['clientMessageKey']);
      const id = byKey.get(key) ?? String(next++);
      byKey.set(key, id);
      sendJson(res, 200, {
        data: { createServiceMessage: { id, conversationId: input['conversationId'], role: input['role'], content: input['content'], createdAt: new Date().toISOString() } },
      });
      return;
    }
    sendJson(res, 200, {
      data: {
        updateServiceConversation: {
          id: input['conversationId'],
          contactName: input['contactName'] ?? null,
          contactPhone: input['contactPhone'] ?? null,
          contactEmail: input['contactEmail'] ?? null,
          lastIntent: input['lastIntent'] ?? null,
          agentHandoff: input['agentHandoff'] ?? null,
          updatedAt: new Date().toISOString(),
        },
      },
    });
  };
}

export async function startStubs(): Promise<Stubs> {
  const [engine, graphql, handoff, translate, propertyApi] = await Promise.all([
    startStub((_req, res) => sendJson(res, 200, engineReply())),
    startStub(graphqlStubHandler()),
    startStub((_req, res) => sendJson(res, 202, { accepted: true })),
    startStub((req, res) => sendJson(res, 200, { translated_text: `[es] ${(req.body as { text: string }).text}` })),
    startStub((_req, res) => sendJson(res, 404, { error: 'not stubbed' })),
  ]);
  return { engine, graphql, handoff, translate, propertyApi };
}

export interface StubbedService {
  readonly app: FastifyInstance;
  readonly stubs: Stubs;
  readonly deps: Deps;
  readonly config: Config;
  /** Every log line the service wrote, as raw JSON text. */
  readonly logs: string[];
  /** This app's own metrics registry (also served at `GET /metrics`). */
  readonly metrics: Metrics;
  /** Its idempotency store and session turns. */
  readonly guards: ChatGuards;
  /** The durable handoff outbox (its SQLite file is in a fresh DATA_DIR unless one is given). */
  readonly outbox: Outbox;
  close(): Promise<void>;
}

/**
 * Waits until each service's shared-state Redis connection has answered (`/ready` says `redis: ok`):
 * a command sent before fails at once (no offline queue), and the chat would go on in process.
 */
export async function untilRedisReady(...services: readonly StubbedService[]): Promise<void> {
  for (const svc of services) {
    while ((await svc.app.inject({ method: 'GET', url: '/ready' })).json().checks.redis !== 'ok') await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Extra tracing settings, e.g. `spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())]`,
 * and outbox timings (by default retries 20..200 ms apart and a 50 ms poll, so tests stay fast).
 */
export type StubbedServiceOptions = ComposeOptions;

const FAST_OUTBOX = { backoff: { baseMs: 20, capMs: 200 }, pollIntervalMs: 50 } as const;

/** The real service (real clients, real sockets) against loopback stubs; tests use `app.inject`. */
export async function startStubbedService(env: Record<string, string> = {}, options: StubbedServiceOptions = {}): Promise<StubbedService> {
  const stubs = await startStubs();
  // Each service has its own outbox file: another test file's worker must never deliver its handoffs.
  const dataDir = env['DATA_DIR'] === undefined ? mkdtempSync(join(tmpdir(), 'chat-adapter-outbox-')) : undefined;
  const config = loadConfig({
    ...(dataDir === undefined ? {} : { DATA_DIR: dataDir }),
    ENVIRONMENT: 'qa',
    ...stubPartiesEnv(stubs),
    LOG_LEVEL: 'debug',
    SHUTDOWN_GRACE_MS: '2000',
    // Off: on a loaded test machine any loop may lag a second; test/http/overload.test.ts turns it on.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const service = await composeService(config, logger, { ...options, outbox: { ...FAST_OUTBOX, ...options.outbox } });
  const { app, metrics } = service;
  await app.ready();
  return {
    app,
    stubs,
    deps: service.deps,
    config,
    logs,
    metrics,
    guards: service.guards,
    outbox: service.outbox,
    async close() {
      await service.close();
      await Promise.all(Object.values(stubs).map((s: StubServer) => s.close()));
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface StubbedServiceHandle {
  /** The service of this test file (started in beforeAll, closed in afterAll). */
  readonly svc: StubbedService;
  /** `POST /chat_adapter` through `app.inject`. */
  chat(payload: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** One stubbed service for the whole test file. */
export function useStubbedService(env: Record<string, string> = {}, options: StubbedServiceOptions = {}): StubbedServiceHandle {
  let current: StubbedService | undefined;
  beforeAll(async () => {
    current = await startStubbedService(env, options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const handle: StubbedServiceHandle = {
    get svc() {
      if (current === undefined) throw new Error('the stubbed service is used before beforeAll ran');
      return current;
    },
    chat: (payload, headers = {}) =>
      handle.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: payload as object, headers }),
  };
  return handle;
}
