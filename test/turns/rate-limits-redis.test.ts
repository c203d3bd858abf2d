import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { waitFor } from '../outbox/outbox-contract.ts';

/** docs/api.md#rate-limits with REDIS_URL: counters shared by two instances, per instance while Redis is down. */
const LIMIT = 4;
let redis: TestRedis;
let a: StubbedService;
let b: StubbedService;
beforeAll(async () => {
  redis = await startTestRedis();
  const env = { REDIS_URL: redis.url, RATE_LIMIT_SESSION_PER_MIN: String(LIMIT) };
  [a, b] = await Promise.all([startStubbedService(env), startStubbedService(env)]);
}, 20_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.stop();
});

const chat = (svc: StubbedService, payload: Record<string, unknown>) => svc.app.inject({ method: 'POST', url: '/chat_adapter', payload });

/** Statuses of chats of one new session: `first` on instance a, then `second` on instance b. */
async function statuses(first: number, second: number): Promise<number[]> {
  const session = chatRequest({ session_id: newSessionId() });
  const out: number[] = [];
  for (let i = 0; i < first; i += 1) out.push((await chat(a, session)).statusCode);
  for (let i = 0; i < second; i += 1) out.push((await chat(b, session)).statusCode);
  return out;
}

/** Probes with new sessions until the instances count together (Redis connected again), at most `ms`. */
async function untilShared(ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while ((await statuses(1, LIMIT)).at(-1) !== 429) {
    if (Date.now() > deadline) throw new Error('the instances never shared their counters');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ok = (n: number) => Array<number>(n).fill(200);

describe('rate limits on one Redis shared by two instances', () => {
  it('count one session across both instances', async () => {
    await untilShared(5_000); // both limiters connected
    expect(await statuses(2, 3)).toEqual([...ok(4), 429]);
    expect(await statuses(4, 1)).toEqual([...ok(4), 429]);
  });

  it('hold per instance while Redis is down (chats go on, quickly), and are shared again once it is back', async () => {
    await redis.stop();
    const started = Date.now();
    // Each instance counts on its own: 4 on a, and 4 more on b, then each refuses.
    expect(await statuses(LIMIT + 1, LIMIT + 1)).toEqual([...ok(4), 429, ...ok(4), 429]);
    // Ten chats, none waiting on the missing Redis (generous bound for a loaded machine).
    expect(Date.now() - started).toBeLessThan(5_000);
    // Said once either way: by the limiter when a command failed, or by the connection when it saw
    // Redis go before any command was tried (which comes first depends on the machine's load).
    const said = (l: string) => l.includes('rate limits kept per instance') || l.includes('rate limits go on in-process');
    await waitFor(() => (a.logs.some(said) ? true : undefined), 3_000, 'the outage to be logged');

    await redis.start();
    await untilShared(10_000);
    expect(await statuses(3, 2)).toEqual([...ok(4), 429]);
  }, 30_000);
});
