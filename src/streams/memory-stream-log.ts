/**
 * The stream log in process (no REDIS_URL): one record per conversation's current turn, its parts
 * in an array, followers woken by the producer. Bounded: TURN_MAX_BYTES per turn, `maxBytes` for
 * all turns together (the least recently written turns are dropped first, ended ones before live
 * ones), and a turn is forgotten ENDED_KEPT_MS after its end.
 */
import {
  ENDED_KEPT_MS, RESUMERS_PER_TURN, TurnBudget,
  type FollowItem, type Follower, type FoundTurn, type StreamEnd, type StreamLog, type StreamLogWriter, type TurnIdentity,
} from './stream-log.ts';

interface Part {
  readonly id: number;
  readonly json: string;
}

interface Turn extends TurnIdentity {
  readonly parts: Part[];
  readonly budget: TurnBudget;
  ended: StreamEnd | undefined;
  endedAt: number;
  followers: number;
  /** Followers waiting for the next part or the end. */
  wake: Array<() => void>;
  stopListener: (() => void) | undefined;
  stopAsked: boolean;
  /** Dropped for room before its end: its followers are told it was cut. */
  dropped: boolean;
}

/** Live turns a sweep steps over before it stops (they sit before ended ones until they end). */
const SWEEP_LIVE_SKIPPED = 32;

export interface MemoryStreamLogOptions {
  /** All turns' parts together (default 16 MiB). */
  readonly maxBytes?: number;
  readonly now?: () => number;
}

export function createMemoryStreamLog(options: MemoryStreamLogOptions = {}): StreamLog {
  return new MemoryStreamLog(options.maxBytes ?? 16 * 1024 * 1024, options.now ?? Date.now);
}

function wakeAll(turn: Turn): void {
  const wake = turn.wake;
  turn.wake = [];
  for (const w of wake) w();
}

/** The parts after `afterId`, then the end or an interruption, waiting for the producer between them. */
async function* read(turn: Turn, afterId: number): AsyncGenerator<FollowItem> {
  let next = turn.parts.findIndex((p) => p.id > afterId);
  if (next === -1) next = turn.parts.length;
  for (;;) {
    while (next < turn.parts.length) {
      const part = turn.parts[next++]!;
      yield { kind: 'part', id: part.id, json: part.json };
    }
    // Cut (a reply part over the ceiling, or dropped for room while live): the parts are not the whole reply.
    if ((turn.budget.overflowed && turn.ended !== undefined) || (turn.dropped && turn.ended === undefined)) {
      yield { kind: 'interrupted' };
      return;
    }
    if (turn.ended !== undefined) {
      yield { kind: 'end', end: turn.ended };
      return;
    }
    await new Promise<void>((resolve) => turn.wake.push(resolve));
  }
}

function found(turn: Turn): FoundTurn {
  return {
    messageId: turn.messageId,
    scope: turn.scope,
    ended: turn.ended,
    follow(afterId) {
      if (turn.followers >= RESUMERS_PER_TURN) return undefined;
      turn.followers++;
      const items = read(turn, afterId);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        turn.followers--;
        void items.return(undefined);
      };
      const follower: Follower = { close, [Symbol.asyncIterator]: () => items };
      return follower;
    },
  };
}

class MemoryStreamLog implements StreamLog {
  // A Map keyed by the conversation id (caller text: a Map key, never an object key); its
  // insertion order is the order turns were last written in (a write moves the turn to the end).
  private readonly turns = new Map<string, Turn>();
  private totalBytes = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(maxBytes: number, now: () => number) {
    this.maxBytes = maxBytes;
    this.now = now;
  }

  open(conversationId: string, identity: TurnIdentity): StreamLogWriter {
    const earlier = this.turns.get(conversationId);
    if (earlier !== undefined) this.drop(conversationId, earlier);
    const turn: Turn = {
      ...identity, parts: [], budget: new TurnBudget(), ended: undefined, endedAt: 0, followers: 0, wake: [], stopListener: undefined, stopAsked: false, dropped: false,
    };
    this.turns.set(conversationId, turn);
    return {
      append: (id, json, transient) => {
        // Sizes in UTF-16 code units (the budget) and bytes held (two per unit).
        if (turn.ended !== undefined || turn.dropped || !turn.budget.admit(json.length, transient)) return;
        turn.parts.push({ id, json });
        this.totalBytes += json.length * 2;
        this.touch(conversationId, turn);
        if (this.totalBytes > this.maxBytes) this.sweep();
        wakeAll(turn);
      },
      end: async (kind) => {
        if (turn.ended !== undefined) return;
        turn.ended = kind;
        turn.endedAt = this.now();
        this.touch(conversationId, turn);
        turn.stopListener = undefined;
        wakeAll(turn);
        this.sweep();
      },
      onStop(listener) {
        turn.stopListener = listener;
        if (turn.stopAsked) listener();
      },
    };
  }

  async find(conversationId: string): Promise<FoundTurn | undefined> {
    this.sweep();
    const turn = this.turns.get(conversationId);
    return turn === undefined ? undefined : found(turn);
  }

  async requestStop(conversationId: string, seen: FoundTurn): Promise<void> {
    const turn = this.turns.get(conversationId);
    if (turn === undefined || turn.messageId !== seen.messageId || turn.ended !== undefined || turn.stopAsked) return;
    turn.stopAsked = true;
    turn.stopListener?.();
  }

  async close(): Promise<void> {
    for (const [id, turn] of this.turns) this.drop(id, turn);
  }

  private drop(conversationId: string, turn: Turn): void {
    this.turns.delete(conversationId);
    this.totalBytes -= turn.budget.bytes * 2;
    turn.dropped = true;
    wakeAll(turn);
  }

  /**
   * Forgets expired turns, then the least recently written ones while over the byte ceiling. A turn
   * moves to the end of the map when written or ended, so expired turns are at the front: the scan
   * stops at the first ended turn still kept (and after a few live ones), never walking every turn.
   */
  private sweep(): void {
    const t = this.now();
    let live = 0;
    for (const [id, turn] of this.turns) {
      if (turn.ended === undefined) {
        if (++live > SWEEP_LIVE_SKIPPED) break;
        continue;
      }
      if (t - turn.endedAt <= ENDED_KEPT_MS) break;
      this.drop(id, turn);
    }
    if (this.totalBytes <= this.maxBytes) return;
    for (const pass of ['ended', 'live'] as const) {
      for (const [id, turn] of this.turns) {
        if (this.totalBytes <= this.maxBytes) return;
        if ((turn.ended !== undefined) === (pass === 'ended')) this.drop(id, turn);
      }
    }
  }

  private touch(conversationId: string, turn: Turn): void {
    if (this.turns.get(conversationId) !== turn) return;
    this.turns.delete(conversationId);
    this.turns.set(conversationId, turn);
  }
}
