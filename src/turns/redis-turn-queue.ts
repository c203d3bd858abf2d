/**
 * docs/api.md#one-turn-at-a-time-per-session across instances: a per-session queue in Redis whose
 * head holds the session's turn (a fair lease). A plain `SET NX` lease would let the instance that
 * releases it take it again before a waiter elsewhere polls, breaking arrival order; a ticket queue
 * keeps that order.
 *
 * Every key of a session lives in one hash slot, `<prefix>{<session name>}:...` (sessionSlot): the
 * queue (`turns`: token -> ticket, `leases`: token -> lease expiry, `tickets`: the counter), the
 * session's rate window (`rate`) and its kept conversation (`messages`, `answers`, `language`). So
 * each script below is single-slot on Redis Cluster, and every key it touches is passed in KEYS.
 *
 * Each entry is named by its owner's unique token and holds a short lease (shared-entry.ts renews
 * it). Every script acts on the caller's own token only and is safe to repeat: an enter or leave
 * whose reply was lost is sent again with the same token and changes nothing the first one did.
 * Every script first drops expired entries, so a waiter that finds the head's lease expired (its
 * instance died) takes over. The keys expire with their longest-lived entry and are deleted when
 * the last entry leaves. Redis's own clock (TIME) is used, so instances with skewed clocks agree.
 *
 * The scripts are the `.lua` files in ./lua (each names its KEYS and ARGV), sent by SHA (EVALSHA)
 * and loaded again when Redis answers NOSCRIPT (a restart, a failover to a replica that never saw them).
 */
import type { Cluster, Redis } from 'ioredis';
import { sessionKeysOfSlot, sessionSlot, SESSION_KEY_PREFIX, type SessionWrite } from '../cache/redis-session-data.ts';
import { MAX_SESSION_ANSWERS, MAX_SESSION_MESSAGES } from '../cache/session-cache.ts';
import { readLuaFile } from '../shared-state/lua-file.ts';
import { redisScript, type ScriptReporting } from '../shared-state/redis-script.ts';
import type { WindowCount } from './rate-windows.ts';

const LUA_DIR = new URL('./lua/', import.meta.url).pathname;
/** Every script of the queue, by name (tests and the benchmark name what Redis saw by them). */
export const TURN_SCRIPTS = {
  begin: readLuaFile(LUA_DIR, 'chat-begin'),
  end: readLuaFile(LUA_DIR, 'chat-end'),
  poll: readLuaFile(LUA_DIR, 'turn-poll'),
  renew: readLuaFile(LUA_DIR, 'turn-renew'),
} as const;

export type PollResult = 'head' | 'waiting' | 'gone';

/** What Redis holds for a session's three keys: messages, answers, language (redis-session-data.ts parses it). */
export type RawSession = readonly [unknown, unknown, unknown];

/** The session's own rate window, counted by the start script. */
export interface SessionWindow {
  readonly max: number;
  readonly windowMs: number;
}

export type BeginReply =
  | { readonly state: 'refused'; readonly counts: readonly WindowCount[] }
  | { readonly state: 'waiting' | 'head'; readonly counts: readonly WindowCount[]; readonly session: RawSession | undefined };

/** A turn to store with the leave: what to write and for how long. */
export interface TurnRecord {
  readonly ttlMs: number;
  readonly write: SessionWrite;
}

/** How an entry leaves: plainly, storing its turn, or giving back its session window count (the chat did not run). */
export type Leave = { readonly mode: 'leave' } | { readonly mode: 'store'; readonly record: TurnRecord } | { readonly mode: 'uncount' };

export interface RedisTurnQueue {
  /**
   * Counts `window` (when given) and, when it does not refuse, enters; with `read` the session is
   * read too when the entry is the head. Throws on a Redis failure.
   */
  begin(session: string, token: string, leaseMs: number, window: SessionWindow | undefined, read: boolean): Promise<BeginReply>;
  /** Extends the entry's lease; false when it had already expired. Throws on a Redis failure. */
  renew(session: string, token: string, leaseMs: number): Promise<boolean>;
  /** Where the entry stands; with `read` the session is read too when the entry is the head. */
  poll(session: string, token: string, read: boolean): Promise<{ state: PollResult; session?: RawSession }>;
  /**
   * Leaves the queue; false when the entry was not there (expired, or left before). A turn is
   * stored only while the entry held the turn.
   */
  leave(session: string, token: string, how?: Leave): Promise<boolean>;
  /**
   * False while the connection is down: a command then fails at once without being sent (no
   * offline queue), so it cannot have left anything in Redis.
   */
  readonly connected: boolean;
}

/** A session's seven keys, in its one hash slot: turns leases tickets rate messages answers language. */
export function turnQueueKeys(keyPrefix: string, session: string): string[] {
  const slot = sessionSlot(keyPrefix, session);
  const kept = sessionKeysOfSlot(slot);
  return [`${slot}:turns`, `${slot}:leases`, `${slot}:tickets`, `${slot}:rate`, kept.messages, kept.answers, kept.language];
}

const POLL_STATES = new Map<unknown, PollResult>([[1, 'head'], [0, 'waiting'], [-1, 'gone']]);
const shapeError = (script: string) => new Error(`unexpected reply shape from the ${script} script`);

function parseCounts(raw: unknown, window: SessionWindow | undefined): WindowCount[] {
  if (!Array.isArray(raw)) throw shapeError('chat start');
  return raw.map((pair): WindowCount => {
    if (window === undefined || !Array.isArray(pair) || typeof pair[0] !== 'number' || typeof pair[1] !== 'number') throw shapeError('chat start');
    return { max: window.max, current: pair[0], ttlMs: pair[1] };
  });
}

function parseSession(raw: unknown, script: string): RawSession | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length !== 3) throw shapeError(script);
  return raw as unknown as RawSession;
}

export function parseBeginReply(reply: unknown, window: SessionWindow | undefined): BeginReply {
  if (!Array.isArray(reply)) throw shapeError('chat start');
  const counts = parseCounts(reply[1], window);
  if (reply[0] === -1) return { state: 'refused', counts };
  if (reply[0] !== 0 && reply[0] !== 1) throw shapeError('chat start');
  return { state: reply[0] === 1 ? 'head' : 'waiting', counts, session: parseSession(reply[2], 'chat start') };
}

function leaveArgs(token: string, how: Leave): (string | number)[] {
  if (how.mode !== 'store') return [token, how.mode];
  const { ttlMs, write } = how.record;
  return [token, 'store', ttlMs, MAX_SESSION_MESSAGES, MAX_SESSION_ANSWERS, write.language, write.answer ?? '', write.messages[0], write.messages[1]];
}

export function createRedisTurnQueue(client: Redis | Cluster, keyPrefix = SESSION_KEY_PREFIX, telemetry?: ScriptReporting): RedisTurnQueue {
  const begin = redisScript(client, 'chatBegin', 7, TURN_SCRIPTS.begin, telemetry);
  const end = redisScript(client, 'chatEnd', 7, TURN_SCRIPTS.end, telemetry);
  const poll = redisScript(client, 'turnPoll', 5, TURN_SCRIPTS.poll, telemetry);
  const renew = redisScript(client, 'turnRenew', 3, TURN_SCRIPTS.renew, telemetry);
  const keys = (session: string) => turnQueueKeys(keyPrefix, session);
  const ms = (leaseMs: number) => Math.max(1, Math.ceil(leaseMs));
  return {
    async begin(session, token, leaseMs, window, read) {
      const args = [token, ms(leaseMs), window?.windowMs ?? 0, window?.max ?? 0, read ? 1 : 0];
      return parseBeginReply(await begin(keys(session), args), window);
    },
    async renew(session, token, leaseMs) {
      const [turns, leases, tickets] = keys(session);
      return (await renew([turns!, leases!, tickets!], [token, ms(leaseMs)])) === 1;
    },
    async poll(session, token, read) {
      const [turns, leases, , , messages, answers, language] = keys(session);
      const reply = await poll([turns!, leases!, messages!, answers!, language!], [token, read ? 1 : 0]);
      const state = Array.isArray(reply) ? POLL_STATES.get(reply[0]) : undefined;
      if (state === undefined) throw shapeError('turn poll');
      const kept = parseSession((reply as unknown[])[1], 'turn poll');
      return kept === undefined ? { state } : { state, session: kept };
    },
    async leave(session, token, how = { mode: 'leave' }) {
      return (await end(keys(session), leaveArgs(token, how))) === 1;
    },
    get connected() {
      return client.status === 'ready';
    },
  };
}
