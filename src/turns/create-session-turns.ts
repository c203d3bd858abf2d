/**
 * One turn at a time per session (docs/api.md#one-turn-at-a-time-per-session): the in-process line (local-turn-queue.ts) always,
 * and with REDIS_URL the shared queue (redis-turn-queue.ts) on top, so two instances never run
 * turns of one session at once. A message takes its Redis ticket when it arrives (so arrival order
 * holds across instances), waits for its local turn, then polls Redis with a short backoff until
 * its ticket is at the head. All of it within the message's own deadline. Its entry holds a short
 * lease, renewed while it waits and runs, and always leaves Redis (shared-entry.ts), so neither a
 * Redis stall nor a dead instance strands a session for longer than that lease.
 * When Redis cannot be reached the message goes on in in-process order (docs/api.md#when-a-party-fails): a warning
 * and a metric, never a failed chat.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { createLocalTurnQueue, type LocalTurn, type LocalTurnQueue } from './local-turn-queue.ts';
import { createRedisTurnQueue, type RedisTurnQueue } from './redis-turn-queue.ts';
import { sharedEntry, TURN_LEASE_MS, type SharedEntry } from './shared-entry.ts';

export interface SessionTurn {
  release(): void;
}

export interface SessionTurns {
  /** The turn, or undefined when `deadlineAt` (performance.now() clock) passed while waiting. */
  acquire(sessionKey: string, deadlineAt: number): Promise<SessionTurn | undefined>;
  /** Sessions with a message holding or waiting for the turn on this instance. */
  readonly activeSessions: number;
}

export interface SessionTurnEvents {
  /** Redis could not be used for one message; it went on in in-process order. */
  fallback(operation: string, err: Error): void;
  /** A turn outlived its lease (the next message elsewhere may have started). */
  leaseExpired(): void;
}

const silent: SessionTurnEvents = { fallback: () => {}, leaseExpired: () => {} };
const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** Poll delays: 5 ms doubling to 50 ms, each with jitter so instances do not poll in step. */
const nextDelay = (attempt: number) => Math.min(50, 5 * 2 ** attempt) * (0.5 + Math.random() / 2);

export interface SessionTurnsConfig {
  readonly redis?: Redis | undefined;
  readonly events?: SessionTurnEvents;
}

export function createSessionTurns(config: SessionTurnsConfig = {}): SessionTurns {
  const local = createLocalTurnQueue();
  if (config.redis === undefined) return local;
  return sharedTurns(local, createRedisTurnQueue(config.redis), config.events ?? silent);
}

function sharedTurns(local: LocalTurnQueue, shared: RedisTurnQueue, events: SessionTurnEvents): SessionTurns {
  const fallback = (operation: string) => (err: unknown) => {
    events.fallback(operation, toError(err));
    return undefined;
  };
  const entryEvents = { failed: (operation: string, err: Error) => events.fallback(operation, err), leaseLost: () => events.leaseExpired() };

  /** Waits until the ticket is at the head; false when the deadline passes first. */
  async function waitForHead(sessionKey: string, token: string, deadlineAt: number): Promise<boolean | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const state = await shared.poll(sessionKey, token);
      if (state === 'head') return true;
      const left = deadlineAt - performance.now();
      if (left <= 0) return false;
      // The entry vanished (Redis restarted empty, or its lease lapsed): queue again at the end.
      if (state === 'gone' && (await shared.enter(sessionKey, token, TURN_LEASE_MS))) return true;
      await sleep(Math.min(nextDelay(attempt), left));
    }
  }

  return {
    get activeSessions() {
      return local.activeSessions;
    },
    async acquire(sessionKey, deadlineAt) {
      const token = randomBytes(12).toString('base64url');
      // Redis down: nothing is sent, nothing can be left behind; in-process order only.
      if (!shared.connected) {
        events.fallback('enter', new Error('Redis connection is not ready'));
        const turn = await local.acquire(sessionKey, deadlineAt);
        return turn === undefined ? undefined : withShared(turn, undefined, false);
      }
      // Issued before any await: tickets follow this instance's arrival order.
      const entered = shared.enter(sessionKey, token, TURN_LEASE_MS).catch(fallback('enter'));
      // Left in every case below, also when the enter failed: its reply may be lost while the
      // command still ran on Redis (a stall), and that entry must not block the session.
      const entry = sharedEntry(shared, sessionKey, token, entryEvents);
      const turn = await local.acquire(sessionKey, deadlineAt);
      const atHead = await entered;
      if (turn === undefined) {
        entry.leave();
        return undefined;
      }
      if (atHead === undefined) return withShared(turn, entry, false); // Redis unreachable: in-process order only
      const head = atHead || (await waitForHead(sessionKey, token, deadlineAt).catch(fallback('poll'))) !== false;
      if (!head) {
        entry.leave();
        turn.release();
        return undefined;
      }
      return withShared(turn, entry, true);
    },
  };
}

/** `holdsLease`: false when the turn went on without Redis, so a missing entry at leave is no news. */
function withShared(turn: LocalTurn, entry: SharedEntry | undefined, holdsLease: boolean): SessionTurn {
  if (holdsLease) entry?.hold();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      turn.release();
      entry?.leave();
    },
  };
}
