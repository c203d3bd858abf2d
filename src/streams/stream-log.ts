/**
 * The parts of a streamed reply, kept while it is written and for a minute after
 * (docs/api.md#resuming-a-streamed-reply): any instance can replay and follow them, and a stop
 * asked on any instance reaches the instance producing them. In process (memory-stream-log.ts) or
 * in Redis (redis-stream-log.ts); the route writes and reads through this interface only.
 */

/** How a turn's stream ended: its `finish`, an `error` part, or an `abort` part after a stop. */
export type StreamEnd = 'finished' | 'failed' | 'aborted';

/** Whose turn it is: a resumer or a stop must be allowed for this organisation. */
export interface TurnScope {
  readonly orgId: string;
  readonly propertyId: string;
  readonly sessionId: string;
}

export interface TurnIdentity {
  /** The `messageId` of the stream's `start` part: it names the turn. */
  readonly messageId: string;
  readonly scope: TurnScope;
}

/** What a follower reads: a part (its SSE id and JSON), then one end, or an interruption. */
export type FollowItem =
  | { readonly kind: 'part'; readonly id: number; readonly json: string }
  | { readonly kind: 'end'; readonly end: StreamEnd }
  /** The producer died (or the kept parts were lost) before the end: nothing more will come. */
  | { readonly kind: 'interrupted' };

/** One reader of a turn's parts; `close()` frees its place (also when it stops reading early). */
export interface Follower extends AsyncIterable<FollowItem> {
  close(): void;
}

export interface FoundTurn extends TurnIdentity {
  /** Set once the turn ended; undefined while it is being written (or its producer died). */
  readonly ended: StreamEnd | undefined;
  /**
   * The parts after SSE id `afterId` (0: from the start), then the live ones, then the end. Undefined
   * when the turn already has as many followers as it may (RESUMERS_PER_TURN).
   */
  follow(afterId: number): Follower | undefined;
}

/** The producing side of one turn: parts as they are written, then the end. */
export interface StreamLogWriter {
  /** Keeps one part (`id`: its SSE id, increasing). A transient part may be dropped past the ceiling. */
  append(id: number, json: string, transient: boolean): void;
  /** Marks the end; resolves once it is kept (followers see it). */
  end(kind: StreamEnd): Promise<void>;
  /** Called (at most once) when a stop of this turn is asked, on this instance or another one. */
  onStop(listener: () => void): void;
}

export interface StreamLog {
  /** Starts keeping a turn of `conversationId`; it becomes that conversation's current turn. */
  open(conversationId: string, turn: TurnIdentity): StreamLogWriter;
  /** The conversation's turn being written, or ended less than ENDED_KEPT_MS ago; undefined otherwise. */
  find(conversationId: string): Promise<FoundTurn | undefined>;
  /** Asks the producer of `turn` to stop; it ends the turn's stream itself (with `aborted` if it could). */
  requestStop(conversationId: string, turn: FoundTurn): Promise<void>;
  close(): Promise<void>;
}

/** How long a turn stays findable after its end (a reconnect that races the end still gets it). */
export const ENDED_KEPT_MS = 60_000;
/** At most this many followers per turn (per instance): the next resumer gets 429. */
export const RESUMERS_PER_TURN = 8;
/**
 * The bytes of parts kept for one turn: the answer's own ceiling (256 KiB, as its text deltas and
 * again inside the `data-chat` part) plus room for progress parts and JSON escaping.
 */
export const TURN_MAX_BYTES = 1024 * 1024;
/** Progress parts are kept only while the turn holds fewer bytes than this: the reply's parts come first. */
export const TRANSIENT_KEPT_BELOW_BYTES = TURN_MAX_BYTES - 768 * 1024;

/** Decides, part by part, what a turn keeps within TURN_MAX_BYTES. */
export class TurnBudget {
  bytes = 0;
  /** A reply part did not fit: the kept parts are no longer the whole reply. */
  overflowed = false;

  /** True when a part of `size` bytes is kept (and counted). */
  admit(size: number, transient: boolean): boolean {
    if (this.overflowed) return false;
    if (transient && this.bytes + size > TRANSIENT_KEPT_BELOW_BYTES) return false;
    if (this.bytes + size > TURN_MAX_BYTES) {
      this.overflowed = true;
      return false;
    }
    this.bytes += size;
    return true;
  }
}
