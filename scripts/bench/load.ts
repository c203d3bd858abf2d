/**
 * The load: autocannon (programmatic API) posting chats, every request in a new session (so the
 * session cache never answers and every chat calls the engine) and a new conversation (as many
 * visitors chatting at once: a streamed reply is kept per conversation for resumers, and one
 * conversation for all would keep only the last), with optional extra headers
 * (a caller key) and a fresh `Idempotency-Key` per request. A variant may give its own messages,
 * sent in turn (the hostile variant's worst-case texts).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ChatMessage } from './variants.ts';

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

interface AutocannonResult {
  duration: number;
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships CommonJS without types.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadOptions {
  readonly url: string;
  readonly seconds: number;
  readonly connections: number;
  /** Sent with every request (e.g. `authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A new `Idempotency-Key` on every request. */
  readonly idempotencyKeys?: boolean;
  /** Sent in turn instead of the one ordinary question. */
  readonly messages?: readonly ChatMessage[];
  /**
   * Chats per second over all connections; unset, each connection sends its next chat as soon as
   * the last one is answered (as fast as the target answers).
   */
  readonly rate?: number;
}

export interface LoadResult {
  readonly seconds: number;
  /** Successful (2xx) chats. */
  readonly ok: number;
  /** Non-2xx answers, socket errors and timeouts. */
  readonly failed: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

// Session ids: 32 hex digits (the MD5 shape the request schema accepts), unique per request.
const runPrefix = randomBytes(8).toString('hex');
let sequence = 0;
const nextHex = () => runPrefix + (sequence++).toString(16).padStart(16, '0');
// Conversation ids: 19 digits, unique per request (a run number, then a sequence).
const runDigits = String(randomBytes(4).readUInt32BE(0) % 1_000_000).padStart(6, '0');
let conversations = 0;
const nextConversation = () => `1${runDigits}${String(conversations++).padStart(12, '0')}`;

/** A chat body after its ids (the ids come first, new for every chat). */
const bodyRest = ({ message, spanishSupport = false }: ChatMessage): string =>
  `"graphql_api_key":"bench-caller-key_1","tourScheduleEnabled":true,"history":[],"spanish_support_enabled":${spanishSupport},` +
  `"message":${JSON.stringify(message)},"session_id":"`;
const DEFAULT_MESSAGES: readonly ChatMessage[] = [{ message: 'What are your office hours on Saturday?' }];

export async function load(options: LoadOptions): Promise<LoadResult> {
  const baseHeaders = { 'content-type': 'application/json', ...options.headers };
  const rests = (options.messages ?? DEFAULT_MESSAGES).map(bodyRest);
  let turn = 0;
  const request: AutocannonRequest = {
    method: 'POST',
    path: '/chat_adapter',
    headers: baseHeaders,
    setupRequest(req) {
      req.body = `{"propertyId":"1234567890123456789","orgId":"9876543210987654321","conversation_id":"${nextConversation()}",${rests[turn++ % rests.length]}${nextHex()}"}`;
      if (options.idempotencyKeys === true) req.headers = { ...baseHeaders, 'idempotency-key': nextHex() };
      return req;
    },
  };
  const r = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    requests: [request],
    ...(options.rate !== undefined && { overallRate: options.rate }),
  });
  return {
    seconds: r.duration,
    ok: r['2xx'],
    failed: r.non2xx + r.errors + r.timeouts,
    rps: r['2xx'] / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
  };
}
