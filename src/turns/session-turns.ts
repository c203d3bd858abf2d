/**
 * One turn at a time per session, as its users see it: the turn, how it reaches its session, what a
 * start is handed and answers, and the events it reports. Implemented in process
 * (create-session-turns.ts) and with Redis on top (shared-session-turns.ts).
 */
import type { SessionEntry, SessionKey, Turn } from '../cache/session-cache.ts';
import type { RateWindows, WindowCount } from './rate-windows.ts';

export interface SessionTurn {
  /**
   * With the shared queue: how the turn reads and stores its session (turn-session-cache.ts).
   * Absent otherwise: the session cache serves as usual.
   */
  readonly session?: TurnSession | undefined;
  release(): void;
}

/** The session read with the turn (`entry` undefined: nothing kept); undefined when it was not read. */
export type SessionRead = { readonly entry: SessionEntry | undefined } | undefined;

export type TurnSession =
  /** The turn holds the shared queue's lease: the session was read with the turn, and the turn is stored with the leave. */
  | {
      readonly kind: 'shared';
      readonly read: SessionRead;
      /** Stores the turn in the session at the end of the turn, in the same script as the leave. */
      remember(turn: Turn): void;
    }
  /**
   * Redis did not answer the chat's start in time (a stall): the chat does not wait for it again.
   * The session is not read (the read would stall too; the chat goes on as with an empty session),
   * and the turn is written through the session cache without the chat waiting for the write; the
   * session's next message on this instance starts once the write has settled.
   */
  | {
      readonly kind: 'stalled';
      holdTurnUntil(write: Promise<void>): void;
    };

export interface TurnStart {
  /** The session to read with the turn (shared queue only), so the pipeline does not read it again. */
  readonly session?: SessionKey;
  /** Rate-limit windows to count before the message enters the queue; refused, it never enters. */
  readonly limits?: RateWindows | undefined;
  /**
   * The chat's Idempotency-Key claim, made with the start (with Redis, sent at the same time); false
   * when it answered the chat itself (a replay, 409, 422): nothing is then counted or queued.
   */
  readonly claim?: (() => Promise<boolean>) | undefined;
  /**
   * Aborts when the caller left: a message still waiting then leaves the queue without running,
   * and gives back what it counted (`turn` undefined, `gone` true).
   */
  readonly callerGone?: AbortSignal | undefined;
}

export type TurnOutcome =
  | { readonly kind: 'refused'; readonly counts: readonly WindowCount[] }
  /** The Idempotency-Key claim answered the chat itself. Not counted, not queued. */
  | { readonly kind: 'answered' }
  /** `turn` undefined: the deadline passed while the message waited, or its caller left (`callerGone`). */
  | { readonly kind: 'turn'; readonly counts: readonly WindowCount[]; readonly turn: SessionTurn | undefined };

export interface SessionTurns {
  /**
   * Counts `start.limits`, then, when none refuses, takes the turn; `turn` undefined when
   * `deadlineAt` (performance.now() clock) passed while waiting.
   */
  begin(sessionKey: string, deadlineAt: number, start: TurnStart): Promise<TurnOutcome>;
  /** Sessions with a message holding or waiting for the turn on this instance. */
  readonly activeSessions: number;
}

export interface SessionTurnEvents {
  /** Redis could not be used for one message; it went on in in-process order (and counts). */
  fallback(operation: string, err: Error): void;
  /** A turn outlived its lease (the next message elsewhere may have started). */
  leaseExpired(): void;
}
