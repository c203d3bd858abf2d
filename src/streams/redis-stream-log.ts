/**
 * The stream log in Redis (Redis of any topology): any instance replays and follows a turn's parts, and a stop
 * asked on any instance reaches the producer. All keys of one conversation's turns share the hash
 * tag `{stream:<conversation id>}` (one slot on a cluster):
 *
 * - `...:turn`                 the conversation's current turn: JSON {messageId, orgId, propertyId, sessionId, ended?}
 * - `...:parts:<messageId>`    a Redis stream, one entry per batch of parts (entry id `0-<SSE id of its last
 *                              part>`, a field per part: its SSE id, its JSON), closed by an entry with
 *                              field `e` (the end, or `cut`)
 * - `...:live:<messageId>`     the producer's lease (LEASE_MS): gone while the turn has no end = the producer died
 * - `...:stop:<messageId>`     set by a stop; the producer reads it with its next write or heartbeat
 *
 * The producer's cost with nobody resuming: one round trip (one call of STREAM_WRITE) for the turn's
 * record and its `start` part, then one per BATCH_MS in which parts were written (each also renews
 * the lease and reads the stop flag), the last with the end (a turn that ends within BATCH_MS of its
 * start costs two in all), and one heartbeat per HEARTBEAT_MS of silence. Followers block on XREAD on a connection of
 * their own (at most MAX_FOLLOW_CONNECTIONS per instance), so nobody polls while nobody resumes.
 */
import type { Cluster, Redis } from 'ioredis';
import { readLuaFile } from '../shared-state/lua-file.ts';
import { redisScript } from '../shared-state/redis-script.ts';
import { redisFollowers } from './redis-stream-follow.ts';
import { END_KINDS, streamKeys } from './redis-stream-keys.ts';
import {
  ENDED_KEPT_MS, TurnBudget, type FoundTurn, type StreamEnd, type StreamLog, type StreamLogWriter, type TurnIdentity, type TurnScope,
} from './stream-log.ts';

/** A producer silent (no write, no heartbeat) this long is taken for dead. */
export const LEASE_MS = 5_000;
const HEARTBEAT_MS = 1_500;
/** Parts are sent at most this long after they were written (a resumer is that much behind the writer). */
export const BATCH_MS = 50;
const MAX_BATCH_PARTS = 500;
/** While a turn is written, its keys live this long past the last write or heartbeat. */
const LIVE_TTL_MS = ENDED_KEPT_MS;
/** The current-turn record is small; anything larger is not ours. */
const TURN_RECORD_MAX_CHARS = 4096;

interface TurnRecord extends TurnIdentity {
  readonly ended: StreamEnd | undefined;
}

const isText = (v: unknown): v is string => typeof v === 'string';

function parseRecord(text: string | null): TurnRecord | undefined {
  if (text === null || text.length > TURN_RECORD_MAX_CHARS) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Record<string, unknown>;
  if (![r['messageId'], r['orgId'], r['propertyId'], r['sessionId']].every(isText)) return undefined;
  const ended = isText(r['ended']) && END_KINDS.has(r['ended']) ? (r['ended'] as StreamEnd) : undefined;
  const scope: TurnScope = { orgId: r['orgId'] as string, propertyId: r['propertyId'] as string, sessionId: r['sessionId'] as string };
  return { messageId: r['messageId'] as string, scope, ended };
}

const recordText = (turn: TurnIdentity, ended?: StreamEnd) =>
  JSON.stringify({ messageId: turn.messageId, ...turn.scope, ...(ended !== undefined && { ended }) });

/** A turn's writes, one call per round trip (lua/stream-write.lua names its KEYS and ARGV). */
export const STREAM_WRITE = readLuaFile(new URL('./lua/', import.meta.url).pathname, 'stream-write');

export interface RedisStreamLogEvents {
  /** A write of the log failed (Redis down): resumers of that turn get an interruption. */
  readonly error?: (operation: string, err: Error) => void;
}

export function createRedisStreamLog(redis: Redis | Cluster, events: RedisStreamLogEvents = {}): StreamLog {
  const report = (operation: string) => (err: unknown) => events.error?.(operation, err instanceof Error ? err : new Error(String(err)));
  /** Turns produced here, by message id: a stop asked on this instance needs no round trip. */
  const local = new Map<string, () => void>();
  const follow = redisFollowers(redis, report);
  const write = redisScript(redis, 'chatAdapterStreamWrite', 4, STREAM_WRITE);

  function writer(conversationId: string, turn: TurnIdentity): StreamLogWriter {
    const keys = streamKeys(conversationId);
    const partsKey = keys.parts(turn.messageId);
    const budget = new TurnBudget();
    let pending: Array<[number, string]> = [];
    let lastId = 0;
    let lastWriteAt = Date.now();
    let ended = false;
    let stopListener: (() => void) | undefined;
    let stopAsked = false;
    // One warning per turn while Redis fails, not one per batch of parts.
    let reported = false;
    const reportOnce = (operation: string) => (err: unknown) => {
      if (reported) return;
      reported = true;
      report(operation)(err);
    };
    const stop = () => {
      if (stopAsked) return;
      stopAsked = true;
      stopListener?.();
    };
    local.set(turn.messageId, stop);

    let opened = false;
    /** Set while parts wait: a pending flush (at once for the first, after BATCH_MS for later ones). */
    let flushTimer: { cancel(): void } | undefined;

    /**
     * One round trip (STREAM_WRITE): the turn's record with the first, the parts waiting as one
     * entry, then either the lease renewed and the stop flag read, or (`end`) the end marker.
     */
    const send = (operation: string, end?: StreamEnd) => {
      lastWriteAt = Date.now();
      const last = pending.at(-1);
      const args: string[] = [
        opened ? '' : recordText(turn),
        last === undefined ? '' : `0-${last[0]}`,
        end === undefined ? '' : budget.overflowed ? 'cut' : end,
        `0-${lastId + 1}`,
        end === undefined ? '' : recordText(turn, end),
        String(LIVE_TTL_MS),
        String(LEASE_MS),
        String(ENDED_KEPT_MS),
      ];
      // One entry per batch, named by its last part's id; each part a field (its id) and value (its JSON).
      for (const [id, json] of pending) args.push(String(id), json);
      opened = true;
      pending = [];
      return write([keys.turn, partsKey, keys.live(turn.messageId), keys.stop(turn.messageId)], args).then((flag) => {
        if (typeof flag === 'string') stop();
      }, reportOnce(operation));
    };

    const flush = () => {
      flushTimer = undefined;
      if (pending.length > 0) void send('append');
    };

    const heartbeat = setInterval(() => {
      if (Date.now() - lastWriteAt >= HEARTBEAT_MS) void send('heartbeat');
    }, HEARTBEAT_MS);
    heartbeat.unref();

    return {
      append(id, json, transient) {
        if (ended || id <= lastId || !budget.admit(json.length, transient)) return;
        lastId = id;
        pending.push([id, json]);
        // A batch stays within what one script call unpacks comfortably.
        if (pending.length >= MAX_BATCH_PARTS) {
          flushTimer?.cancel();
          flush();
          return;
        }
        if (flushTimer !== undefined) return;
        // The first part (`start`) goes at once, so that a resumer finds the turn from its start;
        // later parts written within BATCH_MS go in one round trip (those of the last window with the end).
        if (opened) {
          const timer = setTimeout(flush, BATCH_MS);
          flushTimer = { cancel: () => clearTimeout(timer) };
        } else {
          const immediate = setImmediate(flush);
          flushTimer = { cancel: () => clearImmediate(immediate) };
        }
      },
      async end(kind) {
        if (ended) return;
        ended = true;
        flushTimer?.cancel();
        clearInterval(heartbeat);
        local.delete(turn.messageId);
        stopListener = undefined;
        // The parts still waiting, the end marker, the keys kept ENDED_KEPT_MS: one round trip.
        await send('end', kind);
      },
      onStop(listener) {
        stopListener = listener;
        if (stopAsked) listener();
      },
    };
  }


  return {
    open: writer,
    async find(conversationId) {
      const record = parseRecord(await redis.get(streamKeys(conversationId).turn));
      if (record === undefined) return undefined;
      const turn: FoundTurn = { ...record, follow: (afterId) => follow(conversationId, record.messageId, afterId) };
      return turn;
    },
    async requestStop(conversationId, seen) {
      const here = local.get(seen.messageId);
      if (here !== undefined) {
        here();
        return;
      }
      await redis.set(streamKeys(conversationId).stop(seen.messageId), '1', 'PX', LIVE_TTL_MS);
    },
    async close() {
      local.clear();
    },
  };
}
