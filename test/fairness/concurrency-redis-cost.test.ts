/**
 * What the concurrency ceilings cost Redis per chat with REDIS_URL (one node), seen by Redis itself
 * (MONITOR): one script call before the reply, counting the chat on both its counters (client,
 * organisation) at once, and one after it giving both leases back (or, when another chat's
 * admission comes first, riding in that one's call: test/fairness/redis-concurrency.test.ts).
 * Nothing else, and nothing per chat refused beyond its one call.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASES_LUA } from '../../src/fairness/redis-concurrency.ts';
import { chatRequest } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';

const LEASES_SHA = createHash('sha1').update(LEASES_LUA).digest('hex');
let redis: TestRedis;
let raw: Redis;
let svc: StubbedService;

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
  svc = await startStubbedService({ REDIS_URL: redis.url });
  await untilRedisReady(svc);
  // Redis learns the script on first use: not what a chat costs afterwards.
  expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
}, 20_000);
afterAll(async () => {
  await svc?.close();
  raw?.disconnect();
  await redis?.stop();
});

describe('the concurrency ceilings on Redis', () => {
  it('cost a chat one script call before its reply (both counters) and one after it (both leases given back), each key single-slot', async () => {
    const monitor = await raw.monitor();
    const sent: Array<{ command: string; keys: string[] }> = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source === 'lua') return;
      const name = String(args[0]).toLowerCase();
      if (name === 'zrem') sent.push({ command: 'zrem', keys: [String(args[1])] });
      if (name !== 'evalsha' || args[1] !== LEASES_SHA) return;
      // LEASES_LUA: KEYS = the counters giving leases back, then the chats'; ARGV[2] = how many chats.
      const keys = args.slice(3, 3 + Number(args[2])).map(String);
      const chats = Number(args[3 + keys.length + 1]);
      sent.push({ command: chats === 0 ? 'release' : 'acquire', keys });
    });
    await sleep(50);
    expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
    await sleep(100);
    monitor.disconnect();
    expect(sent.map((s) => s.command)).toEqual(['acquire', 'release']);
    for (const { keys } of sent) {
      expect(keys).toHaveLength(2);
      for (const key of keys) expect(key).toMatch(/^chat-adapter:\{conc:[0-9a-f]{32}\}$/);
      expect(new Set(keys).size).toBe(2);
    }
    expect(sent[1]!.keys).toEqual(sent[0]!.keys);
  });
});
