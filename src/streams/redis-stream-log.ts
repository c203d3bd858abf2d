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
import { redisScript, type RedisScript } from '../shared-state/redis-script.ts';
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

/**
 * The producer's side of one turn: parts batched per BATCH_MS, a heartbeat while silent, the stop
 * flag read back with every write, the end in the last round trip.
 */
class RedisTurnWriter implements StreamLogWriter {
  private readonly keys: string[];
  private readonly budget = new TurnBudget();
  private pending: Array<[number, string]> = [];
  private lastId = 0;
  private lastWriteAt = Date.now();
  private ended = false;
  private opened = false;
  private stopListener: (() => void) | undefined;
  private stopAsked = false;
  /** One warning per turn while Redis fails, not one per batch of parts. */
  private reported = false;
  /** Set while parts wait: a pending flush (at once for the first, after BATCH_MS for later ones). */
  private flushTimer: { cancel(): void } | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly turn: TurnIdentity;
  private readonly write: RedisScript;
  private readonly report: Report;
  private readonly forget: () => void;

  constructor(conversationId: string, turn: TurnIdentity, write: RedisScript, report: Report, forget: () => void) {
    this.turn = turn;
    this.write = write;
    this.report = report;
    this.forget = forget;
    const keys = streamKeys(conversationId);
    this.keys = [keys.turn, keys.parts(turn.messageId), keys.live(turn.messageId), keys.stop(turn.messageId)];
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastWriteAt >= HEARTBEAT_MS) void this.send('heartbeat');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Asks the producer to stop (once): its listener aborts the engine call. */
  stop(): void {
    if (this.stopAsked) return;
    this.stopAsked = true;
    this.stopListener?.();
  }

  append(id: number, json: string, transient: boolean): void {
    if (this.ended || id <= this.lastId || !this.budget.admit(json.length, transient)) return;
    this.lastId = id;
    this.pending.push([id, json]);
    // A batch stays within what one script call unpacks comfortably.
    if (this.pending.length >= MAX_BATCH_PARTS) {
      this.flushTimer?.cancel();
      this.flush();
      return;
    }
    if (this.flushTimer !== undefined) return;
    // The first part (`start`) goes at once, so that a resumer finds the turn from its start;
    // later parts written within BATCH_MS go in one round trip (those of the last window with the end).
    if (this.opened) {
      const timer = setTimeout(() => this.flush(), BATCH_MS);
      this.flushTimer = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(() => this.flush());
      this.flushTimer = { cancel: () => clearImmediate(immediate) };
    }
  }

  async end(kind: StreamEnd): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.flushTimer?.cancel();
    clearInterval(this.heartbeat);
    this.forget();
    this.stopListener = undefined;
    // The parts still waiting, the end marker, the keys kept ENDED_KEPT_MS: one round trip.
    await this.send('end', kind);
  }

  onStop(listener: () => void): void {
    this.stopListener = listener;
    if (this.stopAsked) listener();
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (this.pending.length > 0) void this.send('append');
  }

  /**
   * One round trip (STREAM_WRITE): the turn's record with the first, the parts waiting as one
   * entry, then either the lease renewed and the stop flag read, or (`end`) the end marker.
   */
  private send(operation: string, end?: StreamEnd): Promise<void> {
    this.lastWriteAt = Date.now();
    const last = this.pending.at(-1);
    const args: string[] = [
      this.opened ? '' : recordText(this.turn),
      last === undefined ? '' : `0-${last[0]}`,
      end === undefined ? '' : this.budget.overflowed ? 'cut' : end,
      `0-${this.lastId + 1}`,
      end === undefined ? '' : recordText(this.turn, end),
      String(LIVE_TTL_MS),
      String(LEASE_MS),
      String(ENDED_KEPT_MS),
    ];
    // One entry per batch, named by its last part's id; each part a field (its id) and value (its JSON).
    for (const [id, json] of this.pending) args.push(String(id), json);
    this.opened = true;
    this.pending = [];
    return this.write(this.keys, args).then((flag) => {
      if (typeof flag === 'string') this.stop();
    }, (err: unknown) => {
      if (this.reported) return;
      this.reported = true;
      this.report(operation)(err);
    });
  }
}

type Report = (operation: string) => (err: unknown) => void;

export function createRedisStreamLog(redis: Redis | Cluster, events: RedisStreamLogEvents = {}): StreamLog {
  const report: Report = (operation) => (err) => events.error?.(operation, err instanceof Error ? err : new Error(String(err)));
  /** Turns produced here, by message id: a stop asked on this instance needs no round trip. */
  const local = new Map<string, RedisTurnWriter>();
  const follow = redisFollowers(redis, report);
  const write = redisScript(redis, 'chatAdapterStreamWrite', 4, STREAM_WRITE);
  return {
    open(conversationId, turn) {
      const writer = new RedisTurnWriter(conversationId, turn, write, report, () => local.delete(turn.messageId));
      local.set(turn.messageId, writer);
      return writer;
    },
    async find(conversationId) {
      const record = parseRecord(await redis.get(streamKeys(conversationId).turn));
      if (record === undefined) return undefined;
      const turn: FoundTurn = { ...record, follow: (afterId) => follow(conversationId, record.messageId, afterId) };
      return turn;
    },
    async requestStop(conversationId, seen) {
      const here = local.get(seen.messageId);
      if (here !== undefined) {
        here.stop();
        return;
      }
      await redis.set(streamKeys(conversationId).stop(seen.messageId), '1', 'PX', LIVE_TTL_MS);
    },
    async close() {
      local.clear();
    },
  };
}
