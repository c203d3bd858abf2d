/**
 * What the concurrency ceilings cost Redis per chat with REDIS_URL, seen by Redis itself (MONITOR):
 * one lease script per counter (client, organisation), both written before either answer is read,
 * and one ZREM per counter once the chat's work ended. Nothing else, and nothing per chat refused
 * beyond its two scripts.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACQUIRE_LEASE_LUA } from '../../src/fairness/redis-concurrency.ts';
import { chatRequest } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';

const ACQUIRE_SHA = createHash('sha1').update(ACQUIRE_LEASE_LUA).digest('hex');
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
  it('cost a chat two lease scripts before its reply and two ZREM after it, each on its own single-slot key', async () => {
    const monitor = await raw.monitor();
    const sent: Array<{ command: string; key: string }> = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source === 'lua') return;
      const name = String(args[0]).toLowerCase();
      if (name === 'evalsha' && args[1] === ACQUIRE_SHA) sent.push({ command: 'acquire', key: String(args[3]) });
      if (name === 'zrem') sent.push({ command: 'zrem', key: String(args[1]) });
    });
    await sleep(50);
    expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
    await sleep(100);
    monitor.disconnect();
    expect(sent.map((s) => s.command)).toEqual(['acquire', 'acquire', 'zrem', 'zrem']);
    for (const { key } of sent) expect(key).toMatch(/^chat-adapter:\{conc:[0-9a-f]{32}\}$/);
    expect(new Set(sent.map((s) => s.key)).size).toBe(2);
  });
});
