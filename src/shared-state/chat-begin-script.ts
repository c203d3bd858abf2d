/**
 * The start of a chat with REDIS_URL, in one script and one round trip: claim the chat's
 * Idempotency-Key when it has one (`SET NX`; a key already taken ends the script with the record
 * that holds it: a replay, a 409 or a 422 is neither counted nor queued), count the chat's
 * rate-limit windows (narrowest first; a chat refused by one window is not counted by the next,
 * and its claim is given back), then enter the session's turn queue, and, when the entry is the
 * head (it holds the turn), read the session in the same script. A chat that must wait reads the
 * session with the poll that finds it at the head (redis-turn-queue.ts).
 *
 * Counting is @fastify/rate-limit's RedisStore rule, so the keys mean the same as before: INCR, a
 * new window gets its length as expiry, a running one reports what is left of it (PTTL).
 */
import type { RateWindow, WindowCount } from '../turns/rate-windows.ts';
import { SESSION_LUA, TURN_QUEUE_LUA } from './turn-queue-lua.ts';

/** The namespace of rate-limit counters (as the limiter's own store named them). */
export const RATE_LIMIT_KEY_PREFIX = 'chat-adapter:rate-limit:';

// KEYS q e n, one key per window, then m a l when the session is read, then the claim's key.
// ARGV token lease_ms window_ms windows read(0|1) claim_value('' none) claim_ms, then each window's limit.
// -> {-2, {}, record} key taken | {-1, counts} refused | {0, counts} waiting | {1, counts[, session]} head.
export const CHAT_BEGIN = `${TURN_QUEUE_LUA}${SESSION_LUA}
local windows = tonumber(ARGV[4])
local window_ms = tonumber(ARGV[3])
local claim_key = false
if ARGV[6] ~= '' then
  claim_key = KEYS[#KEYS]
  if not redis.call('SET', claim_key, ARGV[6], 'PX', ARGV[7], 'NX') then return {-2, {}, redis.call('GET', claim_key)} end
end
local counts = {}
for i = 1, windows do
  local key = KEYS[3 + i]
  local current = redis.call('INCR', key)
  local ttl
  if current == 1 then
    redis.call('PEXPIRE', key, window_ms)
    ttl = window_ms
  else
    ttl = redis.call('PTTL', key)
  end
  counts[i] = {current, ttl}
  if current > tonumber(ARGV[7 + i]) then
    if claim_key then redis.call('DEL', claim_key) end
    return {-1, counts}
  end
end
if not enter_entry(KEYS[1], KEYS[2], KEYS[3], ARGV[1], tonumber(ARGV[2])) then return {0, counts} end
if ARGV[5] == '1' then return {1, counts, read_session(KEYS[4 + windows], KEYS[5 + windows], KEYS[6 + windows])} end
return {1, counts}`;

/** What Redis holds for a session's three keys: messages, answers, language (redis-session-data.ts parses it). */
export type RawSession = readonly [unknown, unknown, unknown];

export type BeginReply =
  /** The Idempotency-Key was already claimed: `record` is what holds it. */
  | { readonly state: 'taken'; readonly record: string }
  | { readonly state: 'refused'; readonly counts: readonly WindowCount[] }
  | { readonly state: 'waiting' | 'head'; readonly counts: readonly WindowCount[]; readonly session: RawSession | undefined };

export interface BeginCall {
  readonly keys: string[];
  readonly args: (string | number)[];
}

/** An Idempotency-Key claim made by the script: `SET key value PX ms NX`. */
export interface ScriptClaim {
  readonly key: string;
  readonly value: string;
  readonly ms: number;
}

/** Keys and arguments of one call: `turnKeys` q e n, `sessionKeys` m a l when the session is to be read. */
export function beginCall(turnKeys: readonly string[], token: string, leaseMs: number, windows: readonly RateWindow[], windowMs: number, sessionKeys: readonly string[] | undefined, claim?: ScriptClaim): BeginCall {
  const keys = [...turnKeys];
  const args: (string | number)[] = [token, leaseMs, windowMs, windows.length, sessionKeys === undefined ? 0 : 1, claim?.value ?? '', claim?.ms ?? 0];
  for (const window of windows) {
    keys.push(RATE_LIMIT_KEY_PREFIX + window.key);
    args.push(window.max);
  }
  if (sessionKeys !== undefined) keys.push(...sessionKeys);
  if (claim !== undefined) keys.push(claim.key);
  return { keys, args };
}

const shapeError = () => new Error('unexpected reply shape from the chat start script');

export function parseBeginReply(reply: unknown, windows: readonly RateWindow[]): BeginReply {
  if (!Array.isArray(reply) || !Array.isArray(reply[1])) throw shapeError();
  if (reply[0] === -2) {
    if (typeof reply[2] !== 'string') throw shapeError();
    return { state: 'taken', record: reply[2] };
  }
  const counts = (reply[1] as unknown[]).map((pair, i): WindowCount => {
    const window = windows[i];
    if (window === undefined || !Array.isArray(pair) || typeof pair[0] !== 'number' || typeof pair[1] !== 'number') throw shapeError();
    return { max: window.max, current: pair[0], ttlMs: pair[1] };
  });
  if (reply[0] === -1) return { state: 'refused', counts };
  const session = reply[2];
  if (session !== undefined && (!Array.isArray(session) || session.length !== 3)) throw shapeError();
  return { state: reply[0] === 1 ? 'head' : 'waiting', counts, session: session as RawSession | undefined };
}
