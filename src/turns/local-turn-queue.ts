/**
 * docs/api.md#one-turn-at-a-time-per-session within one process: the messages of one session take turns in the order they
 * arrived. One FIFO line per session key, in a Map, created by the first message and deleted when
 * the last one leaves: an idle session costs nothing, a busy one one Map entry and one small array.
 * There is no global lock: sessions never wait for each other.
 */
import { performance } from 'node:perf_hooks';

/** Holding the turn; `release` lets the next message of the session go (idempotent). */
export interface LocalTurn {
  release(): void;
}

export interface LocalTurnQueue {
  /**
   * Resolves with the turn once every earlier message of the session has released its own, or with
   * undefined when `deadlineAt` (performance.now() clock) comes first, or `callerGone` aborts (the
   * caller left): the message then leaves the line without ever holding the turn.
   */
  acquire(sessionKey: string, deadlineAt: number, callerGone?: AbortSignal): Promise<LocalTurn | undefined>;
  /** Sessions with a message holding or waiting for the turn. */
  readonly activeSessions: number;
  /** True while a message of the session holds or waits for the turn. */
  busy(sessionKey: string): boolean;
}

interface Waiter {
  wake?: () => void;
}

export function createLocalTurnQueue(): LocalTurnQueue {
  // line[0] holds the turn; the others wait, in arrival order.
  const lines = new Map<string, Waiter[]>();

  function turnOf(sessionKey: string, waiter: Waiter): LocalTurn {
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        const line = lines.get(sessionKey);
        if (line === undefined || line[0] !== waiter) return;
        line.shift();
        const next = line[0];
        if (next === undefined) lines.delete(sessionKey);
        else next.wake?.();
      },
    };
  }

  return {
    get activeSessions() {
      return lines.size;
    },
    busy: (sessionKey) => lines.has(sessionKey),
    acquire(sessionKey, deadlineAt, callerGone) {
      const waiter: Waiter = {};
      const line = lines.get(sessionKey);
      if (line === undefined) {
        lines.set(sessionKey, [waiter]);
        return Promise.resolve(turnOf(sessionKey, waiter));
      }
      const left = deadlineAt - performance.now();
      if (left <= 0 || callerGone?.aborted === true) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const leaveLine = () => {
          const at = line.indexOf(waiter);
          if (at <= 0) return; // already woken (at 0) or gone
          line.splice(at, 1);
          clearTimeout(timer);
          callerGone?.removeEventListener('abort', leaveLine);
          resolve(undefined);
        };
        const timer = setTimeout(leaveLine, left);
        callerGone?.addEventListener('abort', leaveLine, { once: true });
        waiter.wake = () => {
          clearTimeout(timer);
          callerGone?.removeEventListener('abort', leaveLine);
          resolve(turnOf(sessionKey, waiter));
        };
        line.push(waiter);
      });
    },
  };
}
