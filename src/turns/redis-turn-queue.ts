/**
 * docs/api.md#one-turn-at-a-time-per-session across instances: a per-session queue in Redis whose head holds the session's turn
 * (a fair lease). A plain `SET NX` lease would let the instance that releases it take it again
 * before a waiter elsewhere polls, breaking arrival order; a ticket queue keeps that order.
 *
 * Per session, three keys in one hash slot (`{<session>}`):
 *   :q  sorted set  token -> ticket (arrival order, from :n)
 *   :e  sorted set  token -> lease expiry (Redis clock, ms)
 *   :n  ticket counter
 * Each entry is named by its owner's unique token and holds a short lease (create-session-turns.ts
 * renews it while the message waits or runs). Every script acts on the caller's own token only and
 * is safe to repeat: an enter or leave whose reply was lost (a Redis stall, a command timeout) is
 * sent again with the same token and changes nothing the first one did. Every script first drops
 * expired entries, so a waiter that finds the head's lease expired (its instance died, or lost
 * Redis mid-turn) takes over. The keys expire with their longest-lived entry and are deleted when the
 * last entry leaves, so an idle session leaves nothing behind. Redis's own clock (TIME) is used, so
 * instances with skewed clocks agree.
 *
 * A chat's own start and end are one script each (src/shared-state/chat-begin-script.ts, chat-end-
 * script.ts): the start also counts its rate limits and reads the session when it gets the turn at
 * once, the end also stores the turn; a poll that finds the entry at the head reads the session too.
 * The Lua of all of them: src/shared-state/turn-queue-lua.ts.
 */
import type { Redis } from 'ioredis';
import { beginCall, CHAT_BEGIN, parseBeginReply, type BeginReply, type RawSession, type ScriptClaim } from '../shared-state/chat-begin-script.ts';
import { CHAT_END, endCall, type TurnRecord } from '../shared-state/chat-end-script.ts';
import { redisScript, redisScriptWithKeys } from '../shared-state/redis-script.ts';
import { SESSION_LUA, TURN_QUEUE_LUA } from '../shared-state/turn-queue-lua.ts';
import type { RateWindow } from './rate-windows.ts';

// KEYS q e n; ARGV token leaseMs -> 1 renewed, 0 the entry is gone (its lease had expired).
const RENEW = `${TURN_QUEUE_LUA}
local now = now_ms()
prune(KEYS[1], KEYS[2], now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
lease(KEYS[1], KEYS[2], KEYS[3], ARGV[1], now + tonumber(ARGV[2]))
return 1`;

// KEYS q e, then m a l to read the session at the head; ARGV token -> {1} head (with the session
// when asked), {0} still waiting, {-1} the entry is gone (expired, or Redis lost it).
const POLL = `${TURN_QUEUE_LUA}${SESSION_LUA}
prune(KEYS[1], KEYS[2], now_ms())
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-1} end
if not head_is(KEYS[1], ARGV[1]) then return {0} end
if #KEYS == 5 then return {1, read_session(KEYS[3], KEYS[4], KEYS[5])} end
return {1}`;

/** The queue's own scripts, by name (tests name what Redis saw by them). */
export const TURN_QUEUE_SCRIPTS = { renew: RENEW, poll: POLL } as const;

export type PollResult = 'head' | 'waiting' | 'gone';

export interface RedisTurnQueue {
  /**
   * Claims `claim` (when given), counts `windows` and, when none refuses, enters
   * (chat-begin-script.ts); with `sessionKeys` (m a l) the session is read too when the entry is
   * the head. Throws on a Redis failure.
   */
  begin(sessionKey: string, token: string, leaseMs: number, windows: readonly RateWindow[], windowMs: number, sessionKeys?: readonly string[], claim?: ScriptClaim): Promise<BeginReply>;
  /** Extends the entry's lease; false when it had already expired. Throws on a Redis failure. */
  renew(sessionKey: string, token: string, leaseMs: number): Promise<boolean>;
  /** Where the entry stands; with `sessionKeys` (m a l) the session is read too when the entry is the head. */
  pollReading(sessionKey: string, token: string, sessionKeys: readonly string[]): Promise<{ state: PollResult; session?: RawSession }>;
  /**
   * Leaves the queue; false when the entry was not there (expired, or left before). With `record`
   * the turn is stored in the session in the same script, only while the entry held the turn.
   */
  leave(sessionKey: string, token: string, record?: TurnRecord): Promise<boolean>;
  /**
   * False while the connection is down: a command then fails at once without being sent (no
   * offline queue), so it cannot have left anything in Redis.
   */
  readonly connected: boolean;
}

const POLL_STATES = new Map<unknown, PollResult>([[1, 'head'], [0, 'waiting'], [-1, 'gone']]);

export const TURN_KEY_PREFIX = 'chat-adapter:turn:';

/** A session's queue keys q e n, in one hash slot (`{<session>}`). */
export function turnQueueKeys(keyPrefix: string, sessionKey: string): string[] {
  const base = `${keyPrefix}{${sessionKey}}`;
  return [`${base}:q`, `${base}:e`, `${base}:n`];
}

export function createRedisTurnQueue(client: Redis, keyPrefix = TURN_KEY_PREFIX): RedisTurnQueue {
  const renew = redisScript(client, 'turnRenew', 3, RENEW);
  const poll = redisScriptWithKeys(client, 'turnPoll', POLL);
  const begin = redisScriptWithKeys(client, 'chatBegin', CHAT_BEGIN);
  const end = redisScriptWithKeys(client, 'chatEnd', CHAT_END);
  const keys = (sessionKey: string) => turnQueueKeys(keyPrefix, sessionKey);
  const ms = (leaseMs: number) => Math.max(1, Math.ceil(leaseMs));
  const pollReading = async (sessionKey: string, token: string, sessionKeys: readonly string[]) => {
    const reply = await poll([...keys(sessionKey).slice(0, 2), ...sessionKeys], [token]);
    const state = Array.isArray(reply) ? POLL_STATES.get(reply[0]) : undefined;
    if (state === undefined) throw new Error('unexpected reply shape from the turn poll');
    const session = (reply as unknown[])[1];
    return Array.isArray(session) ? { state, session: session as unknown as RawSession } : { state };
  };
  return {
    async begin(sessionKey, token, leaseMs, windows, windowMs, sessionKeys, claim) {
      const call = beginCall(keys(sessionKey), token, ms(leaseMs), windows, windowMs, sessionKeys, claim);
      return parseBeginReply(await begin(call.keys, call.args), windows);
    },
    async renew(sessionKey, token, leaseMs) {
      return (await renew(keys(sessionKey), [token, ms(leaseMs)])) === 1;
    },
    pollReading,
    async leave(sessionKey, token, record) {
      const call = endCall(keys(sessionKey), token, record);
      return (await end(call.keys, call.args)) === 1;
    },
    get connected() {
      return client.status === 'ready';
    },
  };
}
