/**
 * Where the fault table (fault-table.test.ts) runs: the service in this process (`app.inject`) or a
 * real `node dist/src/server.js` process reached over HTTP. Both get loopback stubs for every party, a
 * real redis-server of their own and the same short per-party timeouts, and answer the same questions:
 * what a chat got, what the GraphQL stub was asked to store for it, what the service logged, and
 * whether the process still runs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { spawnService, type ServiceProcess } from '../helpers/service-process.ts';
import { sendJson, type RecordedRequest, type StubHandler } from '../helpers/stub-server.ts';
import { graphqlStubHandler, startStubbedService, startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';

/** Every party's own timeout here; a slow party answers 3 times later. */
export const PARTY_TIMEOUT_MS = 1000;
/** The handoff receiver's: a chat answered faster than this did not wait for its delivery. */
export const HANDOFF_TIMEOUT_MS = 2000;
export const SESSION_LIMIT_PER_MIN = 5;
export const ADMIN_KEY = 'admin-KEY-for-fault-table-0123';

export const OFFICE_HOURS = 'What are your office hours?';
export const UNITS_QUESTION = 'Do you have any two bedroom units available?';
export const EMERGENCY = 'Water is pouring through the ceiling! I am Dana Whitfield, 415-555-0134';

export interface ChatAnswer {
  readonly status: number;
  // Whatever the service answered (a chat response or an error body).
  readonly body: any;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly ms: number;
  /** The trace id the chat was sent with (`traceparent`): its stored messages and handoff carry it. */
  readonly traceId: string;
  /** The chat request as sent. */
  readonly request: Record<string, unknown>;
}

export interface FaultTarget {
  readonly name: string;
  readonly stubs: Stubs;
  readonly redis: TestRedis;
  /** The handoffs the healthy receiver accepted (202). */
  readonly accepted: RecordedRequest[];
  /** The GraphQL stub's stored message ids by clientMessageKey. */
  readonly messageIds: ReadonlyMap<string, string>;
  /** What each party answers when nothing is wrong with it. */
  readonly healthy: Readonly<Record<keyof Stubs, StubHandler>>;
  chat(overrides?: Record<string, unknown>, headers?: Record<string, string>): Promise<ChatAnswer>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; text: string }>;
  /** The service's log lines so far, parsed. */
  logLines(): Record<string, unknown>[];
  /** False once the service process has ended (in-process: never). */
  running(): boolean;
  close(): Promise<void>;
}

/** Settings both targets share: short timeouts, Redis, the admin routes, a small session limit. */
function sharedEnv(redisUrl: string): Record<string, string> {
  return {
    ENGINE_TIMEOUT_MS: String(PARTY_TIMEOUT_MS),
    GRAPHQL_TIMEOUT_MS: String(PARTY_TIMEOUT_MS),
    TRANSLATE_TIMEOUT_MS: String(PARTY_TIMEOUT_MS),
    PROPERTY_API_TIMEOUT_MS: String(PARTY_TIMEOUT_MS),
    HANDOFF_TIMEOUT_MS: String(HANDOFF_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: '15000',
    REDIS_URL: redisUrl,
    ADMIN_API_KEY: ADMIN_KEY,
    RATE_LIMIT_SESSION_PER_MIN: String(SESSION_LIMIT_PER_MIN),
    // Off: on a loaded test machine any event loop may lag a second (test/http/overload.test.ts has it on).
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  };
}

const engineAnswers: StubHandler = (req, res) => {
  const message = String((req.body as { message?: unknown }).message);
  if (message === UNITS_QUESTION) {
    return sendJson(res, 200, engineReply({ retrieval_type: 'adapter', adapter_action: 'units', intent: 'availability', sub_intent: 'units', response: 'Checking.' }));
  }
  if (message === EMERGENCY) return sendJson(res, 200, engineReply({ intent: 'maintenance', sub_intent: 'emergency_maintenance' }));
  sendJson(res, 200, engineReply());
};

const UNIT = { id: 'u1', name: 'B12', bedrooms: 2, bathrooms: 1, sqft: 900, rent: 1850, available_date: '2026-12-01' };

/** Healthy answers for every party, the GraphQL stub numbering messages and the receiver recording what it accepted. */
function healthyParties(stubs: Stubs, accepted: RecordedRequest[], messageIds: Map<string, string>): Record<keyof Stubs, StubHandler> {
  const healthy: Record<keyof Stubs, StubHandler> = {
    engine: engineAnswers,
    graphql: graphqlStubHandler(messageIds),
    translate: (req, res) => sendJson(res, 200, { translated_text: `[es] ${(req.body as { text: string }).text}` }),
    propertyApi: (_req, res) => sendJson(res, 200, { units: [UNIT] }),
    handoff: (req, res) => {
      accepted.push(req);
      sendJson(res, 202, { accepted: true });
    },
  };
  for (const party of Object.keys(healthy) as (keyof Stubs)[]) stubs[party].handle(healthy[party]);
  return healthy;
}

const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

function traced(headers: Record<string, string>): { traceId: string; headers: Record<string, string> } {
  const traceId = randomHex(16);
  return { traceId, headers: { traceparent: `00-${traceId}-${randomHex(8)}-01`, ...headers } };
}

/** The service in this process (startStubbedService), reached with `app.inject`. */
export async function inProcessTarget(): Promise<FaultTarget> {
  const redis = await startTestRedis();
  const svc = await startStubbedService(sharedEnv(redis.url));
  const accepted: RecordedRequest[] = [];
  const messageIds = new Map<string, string>();
  const healthy = healthyParties(svc.stubs, accepted, messageIds);
  return {
    name: 'in process',
    stubs: svc.stubs,
    redis,
    accepted,
    messageIds,
    healthy,
    async chat(overrides = {}, extra = {}) {
      const { traceId, headers } = traced(extra);
      const request = chatRequest(overrides);
      const started = performance.now();
      const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: request, headers });
      const ms = performance.now() - started;
      return { status: res.statusCode, body: res.json(), headers: res.headers, ms, traceId, request };
    },
    async get(path, headers = {}) {
      const res = await svc.app.inject({ method: 'GET', url: path, headers });
      return { status: res.statusCode, text: res.body };
    },
    logLines: () => parseLines(svc.logs.join('')),
    running: () => true,
    async close() {
      await svc.close();
      await redis.stop();
    },
  };
}

/** The real process, `node dist/src/server.js` as `npm start` runs it, reached over HTTP. */
export async function processTarget(): Promise<FaultTarget> {
  const [redis, stubs] = await Promise.all([startTestRedis(), startStubs()]);
  const accepted: RecordedRequest[] = [];
  const messageIds = new Map<string, string>();
  const healthy = healthyParties(stubs, accepted, messageIds);
  const dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-faults-'));
  let service: ServiceProcess | undefined;
  const stop = async () => {
    if (service !== undefined && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await Promise.all(Object.values(stubs).map((stub) => stub.close()));
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let base: string;
  try {
    service = spawnService({
      ...sharedEnv(redis.url),
      ENVIRONMENT: 'qa',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      ...stubPartiesEnv(stubs),
    });
    await service.untilOutput('chat adapter listening');
    base = String(lines(service).find((line) => line['msg'] === 'chat adapter listening')?.['url']);
  } catch (err) {
    await stop();
    throw err;
  }
  const child = service;
  return {
    name: 'real process',
    stubs,
    redis,
    accepted,
    messageIds,
    healthy,
    async chat(overrides = {}, extra = {}) {
      const { traceId, headers } = traced({ 'content-type': 'application/json', ...extra });
      const request = chatRequest(overrides);
      const started = performance.now();
      const res = await fetch(`${base}/chat_adapter`, { method: 'POST', headers, body: JSON.stringify(request) });
      const body: unknown = await res.json();
      const ms = performance.now() - started;
      return { status: res.status, body, headers: Object.fromEntries(res.headers), ms, traceId, request };
    },
    async get(path, headers = {}) {
      const res = await fetch(`${base}${path}`, { headers });
      return { status: res.status, text: await res.text() };
    },
    logLines: () => lines(child),
    running: () => child.child.exitCode === null && child.child.signalCode === null,
    close: stop,
  };
}

/** Complete JSON log lines of `text` (a line still being written is left for the next call). */
function parseLines(text: string): Record<string, unknown>[] {
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const lines = (service: ServiceProcess) => parseLines(service.stdout());

type GraphqlInput = Record<string, unknown>;
type GraphqlBody = { query: string; variables: { input: GraphqlInput } };

/** Every createServiceMessage the GraphQL stub received for the chat with this trace id, retries included. */
export function storeCalls(target: FaultTarget, traceId: string): GraphqlInput[] {
  return target.stubs.graphql.requests
    .map((r) => r.body as GraphqlBody)
    .filter((b) => b.query.includes('createServiceMessage') && b.variables.input['traceId'] === traceId)
    .map((b) => b.variables.input);
}

/** The requests a party's stub received for the chat with this trace id (`traceparent` carries it). */
export function partyCalls(target: FaultTarget, party: keyof Stubs, traceId: string): RecordedRequest[] {
  return target.stubs[party].requests.filter((r) => String(r.headers['traceparent']).includes(traceId));
}

/**
 * docs/api.md#when-a-party-fails: a 200 has its question and answer stored, under one request id's two
 * clientMessageKeys, and `message_id` is the stored answer's id.
 */
export function expectStored(target: FaultTarget, answer: ChatAnswer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const byKey = new Map(storeCalls(target, answer.traceId).map((input) => [String(input['clientMessageKey']), input]));
  const requestId = [...byKey.keys()][0]?.replace(/:question$/, '');
  expect([...byKey.keys()]).toEqual([`${requestId}:question`, `${requestId}:answer`]);
  const { message, session_id } = answer.request;
  expect(byKey.get(`${requestId}:question`)).toMatchObject({ role: 'USER', content: String(message).trim(), sessionId: session_id });
  expect(byKey.get(`${requestId}:answer`)).toMatchObject({ role: 'ASSISTANT', content: answer.body.response, sessionId: session_id });
  expect(answer.body.message_id).toBe(target.messageIds.get(`${requestId}:answer`));
}
