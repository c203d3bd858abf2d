/**
 * One message's entry in the shared turn queue, from enter to leave: it keeps the entry's short
 * lease alive while the message waits or runs, and makes sure the entry leaves Redis even when
 * Redis stalls. A leave whose reply is lost is sent again (the same token: repeating it is
 * harmless) until one is answered, so an entry whose enter or leave ran late on Redis (the client
 * had given up after its command timeout) is removed as soon as Redis answers again, instead of
 * blocking the session until its lease runs out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { toError } from '../errors.ts';
import type { Leave, RedisTurnQueue } from './redis-turn-queue.ts';

/** An entry not renewed for this long is dropped by the next message of its session (its instance died). */
export const TURN_LEASE_MS = 2_000;
/** Four renewals per lease: one late renewal (a busy event loop, a slow command) does not lose it. */
const RENEW_EVERY_MS = TURN_LEASE_MS / 4;
/** A leave is repeated for this long at most; past it, the entry's own lease has ended it anyway. */
const LEAVE_RETRY_FOR_MS = 10_000;

export interface SharedEntryEvents {
  /** A Redis command of this entry failed (reported once per entry and operation). */
  failed(operation: 'renew' | 'leave', err: Error): void;
  /** The entry was gone at a renewal or at leave while its message held the turn. */
  leaseLost(): void;
}

export interface SharedEntry {
  /** The message now holds the turn: a lost lease from here on is reported. */
  hold(): void;
  /**
   * Stops renewing and removes the entry, retrying through a stall; idempotent, never throws.
   * A turn to store is stored with the leave (once, and only while the entry held the turn).
   */
  leave(how?: Leave): void;
}

export function sharedEntry(queue: RedisTurnQueue, sessionKey: string, token: string, events: SharedEntryEvents): SharedEntry {
  let holding = false;
  let left = false;
  let lostReported = false;
  const reported = new Set<string>();
  const fail = (operation: 'renew' | 'leave', err: unknown) => {
    if (reported.has(operation)) return;
    reported.add(operation);
    events.failed(operation, toError(err));
  };
  const lost = () => {
    if (!holding || lostReported) return;
    lostReported = true;
    events.leaseLost();
  };

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(renew, RENEW_EVERY_MS);
    timer.unref();
  };
  function renew() {
    queue.renew(sessionKey, token, TURN_LEASE_MS).then(
      (present) => {
        if (!present) lost();
        if (!left) schedule();
      },
      (err: unknown) => {
        fail('renew', err);
        if (!left) schedule();
      },
    );
  }
  schedule();

  async function leaveUntilAnswered(how: Leave | undefined) {
    const giveUpAt = Date.now() + LEAVE_RETRY_FOR_MS;
    for (let attempt = 0; ; attempt += 1) {
      try {
        if (!(await queue.leave(sessionKey, token, how))) lost();
        return;
      } catch (err) {
        fail('leave', err);
        if (Date.now() >= giveUpAt) return;
        await sleep(Math.min(1_000, 50 * 2 ** attempt), undefined, { ref: false });
      }
    }
  }

  return {
    hold() {
      holding = true;
    },
    leave(how) {
      if (left) return;
      left = true;
      clearTimeout(timer);
      void leaveUntilAnswered(how);
    },
  };
}
