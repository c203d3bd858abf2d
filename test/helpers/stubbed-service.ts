import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config/config.schema.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createDeps } from '../../src/deps.ts';
import type { Deps } from '../../src/pipeline/deps.ts';
import { createLogger } from '../../src/telemetry/logger.ts';
import { createMetrics, type Metrics } from '../../src/telemetry/metrics.ts';
import { createTracing } from '../../src/telemetry/tracing.ts';
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
  close(): Promise<void>;
}

export interface StubbedServiceOptions {
  /** Extra span processors, e.g. `new SimpleSpanProcessor(new InMemorySpanExporter())`. */
  readonly spanProcessors?: SpanProcessor[];
  /** Passed to createTracing (OTLP export failures). */
  readonly onExportError?: (reason: string) => void;
  readonly exportTimeoutMs?: number;
}

/** The real service (real clients, real sockets) against loopback stubs; tests use `app.inject`. */
export async function startStubbedService(env: Record<string, string> = {}, options: StubbedServiceOptions = {}): Promise<StubbedService> {
  const stubs = await startStubs();
  const config = loadConfig({
    ENVIRONMENT: 'qa',
    ENGINE_URL: stubs.engine.url,
    GRAPHQL_URL: `${stubs.graphql.url}/graphql`,
    HANDOFF_URL: stubs.handoff.url,
    TRANSLATE_URL: stubs.translate.url,
    PROPERTY_API_URL: stubs.propertyApi.url,
    GRAPHQL_AUTHORIZATION,
    GRAPHQL_API_KEY: GRAPHQL_ENV_API_KEY,
    LOG_LEVEL: 'debug',
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
  const tracing = createTracing({
    disabled: config.disableTracing,
    otlpEndpoint: config.otlpEndpoint,
    environment: config.environment,
    ...(options.spanProcessors !== undefined && { spanProcessors: options.spanProcessors }),
    ...(options.onExportError !== undefined && { onExportError: options.onExportError }),
    ...(options.exportTimeoutMs !== undefined && { exportTimeoutMs: options.exportTimeoutMs }),
  });
  const metrics = createMetrics();
  const urls = { ...config.urls } as Record<keyof Stubs, string>;
  const built = createDeps(config, urls, logger, { tracer: tracing.tracer, metrics });
  const app = buildApp({
    deps: built.deps,
    tracer: tracing.tracer,
    routePrefix: config.routePrefix,
    loggerInstance: logger,
    metrics,
    recordMessageText: config.recordMessageText,
  });
  await app.ready();
  return {
    app,
    stubs,
    deps: built.deps,
    config,
    logs,
    metrics,
    async close() {
      await app.close();
      await built.deps.handoff.drain(2_000);
      await built.close();
      await tracing.shutdown();
      await Promise.all(Object.values(stubs).map((s: StubServer) => s.close()));
    },
  };
}
