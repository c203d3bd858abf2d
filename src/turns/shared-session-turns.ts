/**
 * Session turns with REDIS_URL: a message takes its Redis ticket when it arrives (so arrival order
 * holds across instances), waits for its local turn, then polls Redis with a short backoff until
 * its ticket is at the head. All of it within the message's own deadline. Its entry holds a short
 * lease, renewed while it waits and runs, and always leaves Redis (shared-entry.ts), so neither a
 * Redis stall nor a dead instance strands a session for longer than that lease.
 *
 * The start is one script (count the rate limits, enter, read the session at the head) and the end
 * one more (store the turn, leave): a chat whose session is free costs Redis two round trips.
 * When Redis cannot be reached the message goes on in in-process order, its rate limits counted
 * in process and its session through the session cache (docs/api.md#when-a-party-fails): a
 * warning and a metric, never a failed chat.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { SESSION_KEY_PREFIX, sessionEntryOf, sessionKeys, sessionWriteOf } from '../cache/redis-session-data.ts';
import type { SessionKey } from '../cache/session-cache.ts';
import type { RawSession } from '../shared-state/chat-begin-script.ts';
import type { TurnRecord } from '../shared-state/chat-end-script.ts';
import { ownerToken } from '../shared-state/owner-token.ts';
import { isCommandTimeout } from '../shared-state/command-timeout.ts';
import type { SessionRead, SessionTurn, SessionTurnEvents, SessionTurns, TurnOutcome, TurnSession, TurnStart } from './create-session-turns.ts';
import type { LocalTurn, LocalTurnQueue } from './local-turn-queue.ts';
import { isRefused, type WindowCount } from './rate-windows.ts';
import { createRedisTurnQueue, type PollResult } from './redis-turn-queue.ts';
import { sharedEntry, TURN_LEASE_MS, type SharedEntry } from './shared-entry.ts';

const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
const NONE: readonly WindowCount[] = [];

/** Poll delays: 5 ms doubling to 50 ms, each with jitter so instances do not poll in step. */
const nextDelay = (attempt: number) => Math.min(50, 5 * 2 ** attempt) * (0.5 + Math.random() / 2);

type SessionKeyNames = readonly [string, string, string];

/** Where the turn's session lives, when the queue reads and stores it (sessionTtlSeconds given). */
interface SessionPlace {
  readonly key: SessionKey;
  readonly names: SessionKeyNames;
  readonly ttlMs: number;
}

export function sharedTurns(local: LocalTurnQueue, redis: Redis, events: SessionTurnEvents, sessionTtlSeconds: number | undefined): SessionTurns {
  const shared = createRedisTurnQueue(redis);
  const entryEvents = { failed: (operation: string, err: Error) => events.fallback(operation, err), leaseLost: () => events.leaseExpired() };
  const placeOf = (key: SessionKey | undefined): SessionPlace | undefined => {
    if (key === undefined || sessionTtlSeconds === undefined) return undefined;
    const names = sessionKeys(SESSION_KEY_PREFIX, key);
    return { key, names: [names.messages, names.answers, names.language], ttlMs: Math.ceil(sessionTtlSeconds * 1000) };
  };

  /** Waits until the ticket is at the head (with the session read then, when asked); false when the deadline passes first. */
  async function waitForHead(sessionKey: string, token: string, deadlineAt: number, place: SessionPlace | undefined): Promise<{ session?: RawSession | undefined } | false> {
    const names = place?.names ?? [];
    for (let attempt = 0; ; attempt += 1) {
      const polled: { state: PollResult; session?: RawSession } = await shared.pollReading(sessionKey, token, names);
      if (polled.state === 'head') return polled;
      const left = deadlineAt - performance.now();
      if (left <= 0) return false;
      // The entry vanished (Redis restarted empty, or its lease lapsed): queue again at the end.
      if (polled.state === 'gone') {
        const again = await shared.begin(sessionKey, token, TURN_LEASE_MS, [], 0, place?.names);
        if (again.state === 'head') return again;
      }
      await sleep(Math.min(nextDelay(attempt), left));
    }
  }

  /**
   * Redis could not be used: in-process counts and order; `entry`, when the start may have run on
   * Redis, leaves it. After a stall (the start timed out) the chat does not wait for Redis again.
   */
  async function inProcess(sessionKey: string, deadlineAt: number, start: TurnStart, entry: SharedEntry | undefined, reason: Error, stalled = false): Promise<TurnOutcome> {
    if (start.claim !== undefined && !(await start.claim.claimLocally(reason, entry !== undefined))) {
      entry?.leave();
      return { kind: 'answered' };
    }
    const counts = start.limits === undefined ? NONE : await start.limits.countLocally();
    if (isRefused(counts)) {
      entry?.leave();
      return { kind: 'refused', counts };
    }
    const turn = await local.acquire(sessionKey, deadlineAt);
    if (turn === undefined) entry?.leave();
    return { kind: 'turn', counts, turn: turn === undefined ? undefined : withShared(turn, entry, stalled ? STALLED : undefined), claimed: false };
  }

  async function begin(sessionKey: string, deadlineAt: number, start: TurnStart): Promise<TurnOutcome> {
    // Redis down: nothing is sent, nothing can be left behind.
    if (!shared.connected) {
      const reason = new Error('Redis connection is not ready');
      events.fallback('enter', reason);
      return inProcess(sessionKey, deadlineAt, start, undefined, reason);
    }
    const token = ownerToken();
    const place = placeOf(start.session);
    const limits = start.limits;
    let begun;
    try {
      // Sent before any await: tickets follow this instance's arrival order.
      begun = await shared.begin(sessionKey, token, TURN_LEASE_MS, limits?.windows ?? [], limits?.windowMs ?? 0, place?.names, start.claim);
    } catch (err) {
      const reason = toError(err);
      events.fallback('enter', reason);
      // Its reply may be lost while the script still ran on Redis (a stall): that entry must leave.
      const stalled = place !== undefined && isCommandTimeout(reason);
      return inProcess(sessionKey, deadlineAt, start, sharedEntry(shared, sessionKey, token, entryEvents), reason, stalled);
    }
    if (begun.state === 'taken') return { kind: 'taken', record: begun.record };
    if (begun.state === 'refused') return { kind: 'refused', counts: begun.counts };
    const claimed = start.claim !== undefined;
    const entry = sharedEntry(shared, sessionKey, token, entryEvents);
    // An earlier message here that went on without Redis may still write the session: read it again then.
    const waitsHere = local.busy(sessionKey);
    const turn = await local.acquire(sessionKey, deadlineAt);
    if (turn === undefined) {
      entry.leave();
      return { kind: 'turn', counts: begun.counts, turn: undefined, claimed };
    }
    let read = parsed(begun.state === 'head' && !waitsHere ? begun.session : undefined);
    if (begun.state === 'waiting') {
      let pollStalled = false;
      const head = await waitForHead(sessionKey, token, deadlineAt, place).catch((err: unknown) => {
        const reason = toError(err);
        events.fallback('poll', reason);
        pollStalled = isCommandTimeout(reason);
        return undefined; // Redis unreachable: in-process order from here on
      });
      if (head === false) {
        entry.leave();
        turn.release();
        return { kind: 'turn', counts: begun.counts, turn: undefined, claimed };
      }
      // A poll that timed out: the session is not read again through the cache (it would stall too).
      read = pollStalled ? NOTHING_READ : parsed(head?.session);
    }
    entry.hold();
    return { kind: 'turn', counts: begun.counts, turn: withShared(turn, entry, place === undefined ? undefined : { place, read }), claimed };
  }

  return {
    get activeSessions() {
      return local.activeSessions;
    },
    begin,
  };
}

/** The session as read with the turn; undefined (read again through the cache, which reports it) when damaged. */
function parsed(raw: RawSession | undefined): SessionRead {
  if (raw === undefined) return undefined;
  try {
    return { entry: sessionEntryOf(raw[0], raw[1], raw[2]) };
  } catch {
    return undefined;
  }
}

const NOTHING_READ: SessionRead = { entry: undefined };

/** The chat's start timed out: its session is neither read nor waited for (TurnSession `stalled`). */
const STALLED = 'stalled';

/**
 * The turn, and how it reaches its session: through the shared queue (`place`: where the session
 * lives, as read with the turn, stored with the leave), behind the chat after a stall, or not at all
 * (the session cache serves as usual).
 */
function withShared(turn: LocalTurn, entry: SharedEntry | undefined, access: { place: SessionPlace; read: SessionRead } | typeof STALLED | undefined): SessionTurn {
  let released = false;
  let record: TurnRecord | undefined;
  let writing: Promise<void> | undefined;
  let session: TurnSession | undefined;
  if (access === STALLED) {
    session = { kind: 'stalled', holdTurnUntil: (write) => void (writing = write) };
  } else if (access !== undefined) {
    const { place, read } = access;
    session = {
      kind: 'shared',
      read,
      remember(stored) {
        record = { sessionKeys: place.names, ttlMs: place.ttlMs, write: sessionWriteOf(stored, Date.now()) };
      },
    };
  }
  return {
    session,
    release() {
      if (released) return;
      released = true;
      // A turn written behind the chat: the session's next message here starts once the write has settled.
      if (writing === undefined) turn.release();
      else void writing.then(() => turn.release(), () => turn.release());
      entry?.leave(record);
    },
  };
}
