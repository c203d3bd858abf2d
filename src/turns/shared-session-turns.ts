/**
 * Session turns with Redis: a message takes its Redis ticket when it arrives (so arrival order
 * holds across instances), waits for its local turn, then polls Redis with a short backoff until
 * its ticket is at the head. All of it within the message's own deadline. Its entry holds a short
 * lease, renewed while it waits and runs, and always leaves Redis (shared-entry.ts), so neither a
 * Redis stall nor a dead instance strands a session for longer than that lease.
 *
 * The start sends, at once, the session's start script (its rate window, the queue, the session
 * read at the head: one hash slot), the Idempotency-Key claim and the counts of the windows shared
 * by many sessions (one single-slot call each): one round trip. A chat answered from its key, or
 * refused by a window, gives back what the others counted and leaves the queue. The end is one
 * more script (store the turn, leave). When Redis cannot be reached the message goes on in
 * in-process order, its rate limits counted in process and its session through the session cache
 * (docs/api.md#when-a-party-fails): a warning and a metric, never a failed chat. A failover in
 * progress is such an outage.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, Redis } from 'ioredis';
import { sessionEntryOf, sessionWriteOf } from '../cache/redis-session-data.ts';
import { isCommandTimeout } from '../shared-state/command-timeout.ts';
import type { ScriptReporting } from '../shared-state/redis-script.ts';
import { ownerToken } from '../shared-state/owner-token.ts';
import type { SessionRead, SessionTurn, SessionTurnEvents, SessionTurns, TurnOutcome, TurnSession, TurnStart } from './session-turns.ts';
import type { LocalTurn, LocalTurnQueue } from './local-turn-queue.ts';
import { isRefused, type WindowCount } from './rate-windows.ts';
import { createRedisTurnQueue, type BeginReply, type Leave, type RawSession, type RedisTurnQueue } from './redis-turn-queue.ts';
import { sharedEntry, TURN_LEASE_MS, type SharedEntry, type SharedEntryEvents } from './shared-entry.ts';
import { createSharedWindows, type SharedWindows } from './shared-windows.ts';
import { toError } from '../errors.ts';

const NONE: readonly WindowCount[] = [];

/** Poll delays: 5 ms doubling to 50 ms, each with jitter so instances do not poll in step. */
const nextDelay = (attempt: number) => Math.min(50, 5 * 2 ** attempt) * (0.5 + Math.random() / 2);

/** What the three calls of a chat's start brought back. */
interface Started {
  readonly begun: PromiseSettledResult<BeginReply>;
  readonly shared: PromiseSettledResult<readonly WindowCount[]>;
  /** False: the claim answered the chat (a replay, 409, 422). */
  readonly claimed: boolean;
}

export function sharedTurns(
  local: LocalTurnQueue,
  redis: Redis | Cluster,
  events: SessionTurnEvents,
  sessionTtlSeconds: number | undefined,
  telemetry?: ScriptReporting,
): SessionTurns {
  return new SharedSessionTurns(local, redis, events, sessionTtlSeconds, telemetry);
}

class SharedSessionTurns implements SessionTurns {
  private readonly shared: RedisTurnQueue;
  private readonly windows: SharedWindows;
  private readonly entryEvents: SharedEntryEvents;
  private readonly ttlMs: number | undefined;
  private readonly local: LocalTurnQueue;
  private readonly events: SessionTurnEvents;

  constructor(local: LocalTurnQueue, redis: Redis | Cluster, events: SessionTurnEvents, sessionTtlSeconds: number | undefined, telemetry: ScriptReporting | undefined) {
    this.local = local;
    this.events = events;
    this.shared = createRedisTurnQueue(redis, undefined, telemetry);
    this.windows = createSharedWindows(redis, undefined, telemetry);
    this.entryEvents = { failed: (operation: string, err: Error) => events.fallback(operation, err), leaseLost: () => events.leaseExpired() };
    this.ttlMs = sessionTtlSeconds === undefined ? undefined : Math.ceil(sessionTtlSeconds * 1000);
  }

  get activeSessions(): number {
    return this.local.activeSessions;
  }

  /** Waits until the ticket is at the head (with the session read then, when asked); false when the deadline passes first. */
  private async waitForHead(session: string, token: string, deadlineAt: number, read: boolean, callerGone: AbortSignal | undefined): Promise<{ session?: RawSession | undefined } | false> {
    for (let attempt = 0; ; attempt += 1) {
      const polled = await this.shared.poll(session, token, read);
      if (polled.state === 'head') return polled;
      const left = deadlineAt - performance.now();
      if (left <= 0 || callerGone?.aborted === true) return false;
      // The entry vanished (Redis restarted empty, a failover lost it, or its lease lapsed): queue again at the end.
      if (polled.state === 'gone') {
        const again = await this.shared.begin(session, token, TURN_LEASE_MS, undefined, read);
        if (again.state === 'head') return again;
      }
      await sleep(Math.min(nextDelay(attempt), left), undefined, callerGone === undefined ? undefined : { signal: callerGone }).catch(() => {});
    }
  }

  /** Redis could not be used: in-process counts and order. After a stall (the start timed out) the chat does not wait for Redis again. */
  private async inProcess(session: string, deadlineAt: number, start: TurnStart, entry: SharedEntry | undefined, stalled: boolean): Promise<TurnOutcome> {
    const counts = start.limits === undefined ? NONE : await start.limits.countLocally();
    if (isRefused(counts)) {
      entry?.leave();
      return { kind: 'refused', counts };
    }
    const turn = await this.local.acquire(session, deadlineAt, start.callerGone);
    if (turn === undefined) entry?.leave();
    // A caller that left while its message waited: it never ran, so it is not counted.
    if (turn === undefined && start.callerGone?.aborted === true) start.limits?.uncountLocally();
    return { kind: 'turn', counts, turn: turn === undefined ? undefined : withShared(turn, entry, stalled ? STALLED : undefined) };
  }

  /** The three calls of the start, sent together. */
  private async startCalls(session: string, token: string, start: TurnStart): Promise<Started> {
    const limits = start.limits;
    const read = this.ttlMs !== undefined && start.session !== undefined;
    const [begun, counted, claimed] = await Promise.allSettled([
      this.shared.begin(session, token, TURN_LEASE_MS, limits?.session === undefined ? undefined : { max: limits.session.max, windowMs: limits.windowMs }, read),
      limits === undefined || limits.shared.length === 0 ? Promise.resolve(NONE) : this.windows.count(limits.shared, limits.windowMs),
      start.claim === undefined ? Promise.resolve(true) : start.claim(),
    ]);
    // The claim never throws (the idempotency store falls back by itself); a defect is the chat's error.
    if (claimed.status === 'rejected') throw claimed.reason;
    return { begun, shared: counted, claimed: claimed.value };
  }

  async begin(session: string, deadlineAt: number, start: TurnStart): Promise<TurnOutcome> {
    // Redis down: nothing is sent, nothing can be left behind.
    if (!this.shared.connected) {
      this.events.fallback('enter', new Error('Redis connection is not ready'));
      if (start.claim !== undefined && !(await start.claim())) return { kind: 'answered' };
      return this.inProcess(session, deadlineAt, start, undefined, false);
    }
    const token = ownerToken();
    const sharedWindows = start.limits?.shared ?? [];
    // Sent before any await: tickets follow this instance's arrival order.
    const started = await this.startCalls(session, token, start);
    const counted = started.shared.status === 'fulfilled' ? started.shared.value : undefined;
    const undo = (how: Leave) => {
      if (counted !== undefined) this.windows.uncount(sharedWindows);
      if (started.begun.status === 'fulfilled') void this.shared.leave(session, token, how).catch(() => {});
    };
    if (!started.claimed) {
      undo({ mode: 'uncount' });
      return { kind: 'answered' };
    }
    if (started.begun.status === 'rejected') {
      const reason = toError(started.begun.reason);
      this.events.fallback('enter', reason);
      if (counted !== undefined) this.windows.uncount(sharedWindows);
      // Its reply may be lost while the script still ran on Redis (a stall): that entry must leave.
      const stalled = isCommandTimeout(reason);
      return this.inProcess(session, deadlineAt, start, sharedEntry(this.shared, session, token, this.entryEvents), stalled && this.ttlMs !== undefined);
    }
    const begun = started.begun.value;
    let sharedCounts = counted;
    if (sharedCounts === undefined) {
      // The shared windows' slot did not answer (its node is failing over): counted in process for this chat.
      this.events.fallback('limits', toError((started.shared as PromiseRejectedResult).reason));
      sharedCounts = await this.countSharedLocally(start);
    }
    const counts = [...begun.counts, ...sharedCounts];
    if (begun.state === 'refused' || isRefused(counts)) {
      if (begun.state !== 'refused') void this.shared.leave(session, token, { mode: 'uncount' }).catch(() => {});
      if (counted !== undefined) this.windows.uncount(sharedWindows.filter((_w, i) => counted[i] !== undefined && counted[i].current <= counted[i].max));
      return { kind: 'refused', counts };
    }
    const outcome = await this.takeTurn(session, token, deadlineAt, begun, counts, this.ttlMs !== undefined && start.session !== undefined, start.callerGone);
    // A caller that left while its message waited: it never ran, so it is not counted against anyone.
    if (outcome.kind === 'turn' && outcome.turn === undefined && start.callerGone?.aborted === true && counted !== undefined) this.windows.uncount(sharedWindows);
    return outcome;
  }

  /** Counts only the shared windows in process (their Redis calls failed while the session's script ran). */
  private async countSharedLocally(start: TurnStart): Promise<readonly WindowCount[]> {
    const limits = start.limits;
    if (limits === undefined) return NONE;
    const all = await limits.countLocally();
    return limits.session === undefined ? all : all.slice(1);
  }

  /** Entered: waits for the local turn, then for the head of the shared queue. */
  private async takeTurn(session: string, token: string, deadlineAt: number, begun: BeginReply & { state: 'waiting' | 'head' }, counts: readonly WindowCount[], read: boolean, callerGone: AbortSignal | undefined): Promise<TurnOutcome> {
    const entry = sharedEntry(this.shared, session, token, this.entryEvents);
    const notRun = (): Leave => (callerGone?.aborted === true ? { mode: 'uncount' } : { mode: 'leave' });
    // An earlier message here that went on without Redis may still write the session: read it again then.
    const waitsHere = this.local.busy(session);
    const turn = await this.local.acquire(session, deadlineAt, callerGone);
    if (turn === undefined) {
      entry.leave(notRun());
      return { kind: 'turn', counts, turn: undefined };
    }
    let kept = parsed(begun.state === 'head' && !waitsHere ? begun.session : undefined);
    if (begun.state === 'waiting') {
      let pollStalled = false;
      const head = await this.waitForHead(session, token, deadlineAt, read, callerGone).catch((err: unknown) => {
        const reason = toError(err);
        this.events.fallback('poll', reason);
        pollStalled = isCommandTimeout(reason);
        return undefined; // Redis unreachable: in-process order from here on
      });
      if (head === false) {
        entry.leave(notRun());
        turn.release();
        return { kind: 'turn', counts, turn: undefined };
      }
      // A poll that timed out: the session is not read again through the cache (it would stall too).
      kept = pollStalled ? NOTHING_READ : parsed(head?.session);
    }
    entry.hold();
    return { kind: 'turn', counts, turn: withShared(turn, entry, this.ttlMs === undefined || !read ? undefined : { ttlMs: this.ttlMs, read: kept }) };
  }
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
 * The turn, and how it reaches its session: through the shared queue (read with the turn, stored
 * with the leave), behind the chat after a stall, or not at all (the session cache serves as usual).
 */
function withShared(turn: LocalTurn, entry: SharedEntry | undefined, access: { ttlMs: number; read: SessionRead } | typeof STALLED | undefined): SessionTurn {
  let released = false;
  let leave: Leave = { mode: 'leave' };
  let writing: Promise<void> | undefined;
  let session: TurnSession | undefined;
  if (access === STALLED) {
    session = { kind: 'stalled', holdTurnUntil: (write) => void (writing = write) };
  } else if (access !== undefined) {
    session = {
      kind: 'shared',
      read: access.read,
      remember(stored) {
        leave = { mode: 'store', record: { ttlMs: access.ttlMs, write: sessionWriteOf(stored, Date.now()) } };
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
      entry?.leave(leave);
    },
  };
}
