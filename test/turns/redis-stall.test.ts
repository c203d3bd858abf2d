/**
 * Issue 24: a Redis stall (CLIENT PAUSE) while sessions chat on two instances must not strand any
 * session. Commands sent during the pause time out in the client (200 ms) but still run on Redis
 * once it resumes; the entries they leave must not block the next message of the session.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createSessionTurns } from '../../src/turns/create-session-turns.ts';
import type { SessionTurns } from '../../src/turns/session-turns.ts';
import { useRedisConnections } from '../helpers/redis-connections.ts';
import { acquire } from '../helpers/turn-calls.ts';
import { turnQueueKeysIn } from '../helpers/turn-calls.ts';

const redis = useRedisConnections();
const connect = () => redis.connect();

const SESSIONS = 10;

/** One turn of `session` on `turns`: acquire, "work" for `workMs`, release; the ms it waited for the turn. */
async function oneTurn(turns: SessionTurns, session: string, workMs: number): Promise<number> {
  const started = performance.now();
  const turn = await acquire(turns, session, performance.now() + 8_000);
  const waited = performance.now() - started;
  if (turn === undefined) throw new Error(`no turn for ${session} within 8 s`);
  await sleep(workMs);
  turn.release();
  return waited;
}

describe.each([300, 1_500])('a Redis stall of %i ms under chatting sessions on two instances', (pauseMs) => {
  it('then serves every session\'s next message within 1 s, in order again across instances', async () => {
    const instances = [createSessionTurns({ redis: await connect() }), createSessionTurns({ redis: await connect() })];
    const sessions = Array.from({ length: SESSIONS }, (_, i) => `org:prop:stall-${pauseMs}-${i}`);
    let chatting = true;
    // Each session chats on alternate instances, one message after another, through the pause.
    const chats = sessions.map(async (session, i) => {
      for (let n = i; chatting; n += 1) await oneTurn(instances[n % 2]!, session, 20);
    });
    await sleep(200);
    await redis.raw.call('CLIENT', 'PAUSE', String(pauseMs), 'ALL');
    await sleep(pauseMs + 50);
    chatting = false;
    await Promise.all(chats);
    // The next message of every session, on each instance in turn.
    const waits = await Promise.all(sessions.map((session, i) => oneTurn(instances[i % 2]!, session, 0)));
    const again = await Promise.all(sessions.map((session, i) => oneTurn(instances[(i + 1) % 2]!, session, 0)));
    expect(Math.max(...waits, ...again)).toBeLessThan(1_000);
    await sleep(100); // releases are sent without waiting for them
    expect(await turnQueueKeysIn(redis.raw)).toEqual([]);
  }, 30_000);
});
