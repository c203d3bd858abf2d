/**
 * The two Redis round trips of a chat with REDIS_URL, for `npm run bench:clients`: its start
 * script (rate-limit windows counted, turn queue entered, session read) and its end script (turn
 * stored, queue left), each chat in a new session as in the benchmark's load. Made once through
 * the service's own turn queue (ioredis, the replies parsed), once as the same two EVALSHAs on a
 * bare socket (bare-resp.ts): the same keys, arguments and Redis work, without the client.
 */
import { randomBytes } from 'node:crypto';
import { sessionWriteOf, SESSION_KEY_PREFIX } from '../../src/cache/redis-session-data.ts';
import { DEFAULT_SESSION_TTL_SECONDS, MAX_SESSION_ANSWERS, MAX_SESSION_MESSAGES, sessionNameOfKey, type SessionKey } from '../../src/cache/session-cache.ts';
import { ownerToken } from '../../src/shared-state/owner-token.ts';
import { TURN_LEASE_MS } from '../../src/turns/shared-entry.ts';
import { createRedisTurnQueue, TURN_SCRIPTS, turnQueueKeys, type TurnRecord } from '../../src/turns/redis-turn-queue.ts';
import { bareRedis } from './bare-resp.ts';
import { readyRedis } from './ready-redis.ts';

const WINDOW_MS = 60_000;
/** The session's own window, never refusing here (the client's and organisation's are calls of their own). */
const SESSION_WINDOW = { max: 30, windowMs: WINDOW_MS };

const turn = {
  question: 'What are your office hours on Saturday?',
  answer: 'Our leasing office is open Monday to Friday from 9 AM to 6 PM, and Saturday from 10 AM to 4 PM.',
  reply: { response: 'Our leasing office is open **Monday to Friday** from 9 AM to 6 PM, and Saturday from 10 AM to 4 PM.', intent: 'office_hours', sub_intent: 'office_hours', retrieval_type: 'fixed' },
  language: 'en',
} as const;

const runPrefix = randomBytes(6).toString('hex');
let sequence = 0;

/** A new session: its key as the turn queue names it, its session keys, and its turn to store. */
function nextChat(): { session: string; record: TurnRecord } {
  const key: SessionKey = { orgId: '9876543210987654321', propertyId: '1234567890123456789', sessionId: `${runPrefix}${(sequence++).toString(16).padStart(20, '0')}` };
  const write = sessionWriteOf({ ...turn, reply: { ...turn.reply } } as Parameters<typeof sessionWriteOf>[0], Date.now());
  return { session: sessionNameOfKey(key), record: { ttlMs: DEFAULT_SESSION_TTL_SECONDS * 1000, write } };
}

export interface RedisKinds {
  readonly kinds: Record<string, () => Promise<unknown>>;
  close(): Promise<void>;
}

export async function redisKinds(url: string, port: number): Promise<RedisKinds> {
  const client = await readyRedis(url);
  const queue = createRedisTurnQueue(client, SESSION_KEY_PREFIX);
  const bare = await bareRedis(port);
  const beginSha = (await client.script('LOAD', TURN_SCRIPTS.begin)) as string;
  const endSha = (await client.script('LOAD', TURN_SCRIPTS.end)) as string;
  const turnKeys = (session: string) => turnQueueKeys(SESSION_KEY_PREFIX, session);

  const throughQueue = async (): Promise<void> => {
    const chat = nextChat();
    const token = ownerToken();
    const begun = await queue.begin(chat.session, token, TURN_LEASE_MS, SESSION_WINDOW, true);
    if (begun.state !== 'head') throw new Error(`the chat start script answered ${begun.state}`);
    if (!(await queue.leave(chat.session, token, { mode: 'store', record: chat.record }))) throw new Error('the chat end script found no entry');
  };
  const bareCalls = async (): Promise<void> => {
    const chat = nextChat();
    const token = ownerToken();
    const keys = turnKeys(chat.session);
    const beginArgs = [token, TURN_LEASE_MS, WINDOW_MS, SESSION_WINDOW.max, 1];
    if ((await bare.evalsha(beginSha, keys, beginArgs)) === '-') throw new Error('the chat start script failed');
    const { write } = chat.record;
    const endArgs = [token, 'store', chat.record.ttlMs, MAX_SESSION_MESSAGES, MAX_SESSION_ANSWERS, write.language, write.answer ?? '', write.messages[0], write.messages[1]];
    if ((await bare.evalsha(endSha, keys, endArgs)) === '-') throw new Error('the chat end script failed');
  };

  return {
    kinds: {
      'Redis start + end, bare socket': bareCalls,
      'Redis start + end, the service': throughQueue,
    },
    async close() {
      bare.close();
      await client.quit();
    },
  };
}
