/**
 * What a chat costs Redis with REDIS_URL, seen by Redis itself (MONITOR): the commands each
 * instance sends (a script counts once, the commands it runs inside are not round trips; a
 * MULTI ... EXEC block is sent as one write). Guards against a change that quietly adds a command
 * to every chat, and prints nothing.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

let redis: TestRedis;
let raw: Redis;
let svc: StubbedService;
beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
  svc = await startStubbedService({ REDIS_URL: redis.url });
  while ((await svc.app.inject({ method: 'GET', url: '/ready' })).json().checks.redis !== 'ok') await new Promise((r) => setTimeout(r, 50));
}, 20_000);
afterAll(async () => {
  await svc?.close();
  raw?.disconnect();
  await redis?.stop();
});

/** The commands clients sent while `run` ran (MONITOR), by name, scripts' own commands left out. */
async function sentDuring(run: () => Promise<void>): Promise<string[]> {
  const monitor = await raw.monitor();
  const sent: string[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua') sent.push(String(args[0]).toLowerCase());
  });
  await new Promise((r) => setTimeout(r, 50));
  await run();
  await new Promise((r) => setTimeout(r, 150)); // the turn's leave is sent after the reply
  monitor.disconnect();
  return sent;
}

/** Round trips: a MULTI ... EXEC block is one. */
const roundTrips = (sent: readonly string[]) => {
  let n = 0;
  let inBlock = false;
  for (const command of sent) {
    if (command === 'multi') inBlock = true;
    else if (command === 'exec') inBlock = false;
    if (!inBlock) n += 1;
  }
  return n;
};

describe('Redis commands per chat', () => {
  it('a chat in a new session, and the next chat of that session: at most 5 round trips each (rate limit, turn enter and leave, session load and store)', async () => {
    const session = chatRequest({ session_id: newSessionId() });
    for (const message of ['Is there a gym in the building?', 'Are pets allowed in the units?']) {
      const sent = await sentDuring(async () => {
        const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...session, message } });
        expect(res.statusCode).toBe(200);
      });
      expect(roundTrips(sent), sent.join(' ')).toBeLessThanOrEqual(5);
    }
  });
});
