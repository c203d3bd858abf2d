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
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const now = options.now ?? Date.now;
  // A Map keyed by the conversation id (caller text: a Map key, never an object key); its
  // insertion order is the order turns were last written in (a write moves the turn to the end).
  const turns = new Map<string, Turn>();
  let totalBytes = 0;

  const wakeAll = (turn: Turn) => {
    const wake = turn.wake;
    turn.wake = [];
    for (const w of wake) w();
  };

  const drop = (conversationId: string, turn: Turn) => {
    turns.delete(conversationId);
    totalBytes -= turn.budget.bytes * 2;
    turn.dropped = true;
    wakeAll(turn);
  };

  /**
   * Forgets expired turns, then the least recently written ones while over the byte ceiling. A turn
   * moves to the end of the map when written or ended, so expired turns are at the front: the scan
   * stops at the first ended turn still kept (and after a few live ones), never walking every turn.
   */
  const sweep = () => {
    const t = now();
    let live = 0;
    for (const [id, turn] of turns) {
      if (turn.ended === undefined) {
        if (++live > SWEEP_LIVE_SKIPPED) break;
        continue;
      }
      if (t - turn.endedAt <= ENDED_KEPT_MS) break;
      drop(id, turn);
    }
    if (totalBytes <= maxBytes) return;
    for (const pass of ['ended', 'live'] as const) {
      for (const [id, turn] of turns) {
        if (totalBytes <= maxBytes) return;
        if ((turn.ended !== undefined) === (pass === 'ended')) drop(id, turn);
      }
    }
  };

  const touch = (conversationId: string, turn: Turn) => {
    if (turns.get(conversationId) !== turn) return;
    turns.delete(conversationId);
    turns.set(conversationId, turn);
  };

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

  const found = (turn: Turn): FoundTurn => ({
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
  });

  return {
    open(conversationId, identity): StreamLogWriter {
      const earlier = turns.get(conversationId);
      if (earlier !== undefined) drop(conversationId, earlier);
      const turn: Turn = {
        ...identity, parts: [], budget: new TurnBudget(), ended: undefined, endedAt: 0, followers: 0, wake: [], stopListener: undefined, stopAsked: false, dropped: false,
      };
      turns.set(conversationId, turn);
      return {
        append(id, json, transient) {
          // Sizes in UTF-16 code units (the budget) and bytes held (two per unit).
          if (turn.ended !== undefined || turn.dropped || !turn.budget.admit(json.length, transient)) return;
          turn.parts.push({ id, json });
          totalBytes += json.length * 2;
          touch(conversationId, turn);
          if (totalBytes > maxBytes) sweep();
          wakeAll(turn);
        },
        async end(kind) {
          if (turn.ended !== undefined) return;
          turn.ended = kind;
          turn.endedAt = now();
          touch(conversationId, turn);
          turn.stopListener = undefined;
          wakeAll(turn);
          sweep();
        },
        onStop(listener) {
          turn.stopListener = listener;
          if (turn.stopAsked) listener();
        },
      };
    },
    async find(conversationId) {
      sweep();
      const turn = turns.get(conversationId);
      return turn === undefined ? undefined : found(turn);
    },
    async requestStop(conversationId, seen) {
      const turn = turns.get(conversationId);
      if (turn === undefined || turn.messageId !== seen.messageId || turn.ended !== undefined || turn.stopAsked) return;
      turn.stopAsked = true;
      turn.stopListener?.();
    },
    async close() {
      for (const [id, turn] of turns) drop(id, turn);
    },
  };
}
