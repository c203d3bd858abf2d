import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createSessionTurns } from '../../src/turns/create-session-turns.ts';
import type { SessionTurn } from '../../src/turns/session-turns.ts';
import { createRedisTurnQueue, turnQueueKeys } from '../../src/turns/redis-turn-queue.ts';
import { SESSION_KEY_PREFIX } from '../../src/cache/redis-session-data.ts';
import { freePort } from '../helpers/redis-server.ts';
import { useRedisConnections } from '../helpers/redis-connections.ts';
import { enter, poll, acquire, turnQueueKeysIn } from '../helpers/turn-calls.ts';

const redis = useRedisConnections();
/** A connection as the service opens it, once ready (it has no offline queue). */
const connect = (url?: string, ready?: boolean) => redis.connect(url, ready);

let n = 0;
const newSession = () => `org:prop:session-${(n += 1)}`;
const turnKeys = async () => turnQueueKeysIn(redis.raw);
const far = () => performance.now() + 30_000;

describe('the shared turn queue in Redis', () => {
  it('gives the turn to the head only, then to the next in ticket order, and leaves no keys behind', async () => {
    const queue = createRedisTurnQueue(await connect());
    const session = newSession();
    expect(await enter(queue, session, 'a', 5000)).toBe(true);
    expect(await enter(queue, session, 'b', 5000)).toBe(false);
    expect(await enter(queue, session, 'c', 5000)).toBe(false);
    expect(await poll(queue, session, 'b')).toBe('waiting');
    expect(await queue.leave(session, 'a')).toBe(true);
    expect(await poll(queue, session, 'c')).toBe('waiting');
    expect(await poll(queue, session, 'b')).toBe('head');
    expect(await queue.leave(session, 'b')).toBe(true);
    expect(await poll(queue, session, 'c')).toBe('head');
    expect(await queue.leave(session, 'c')).toBe(true);
    expect(await turnKeys()).toEqual([]);
  });

  it('a holder that never leaves (its instance died) blocks the session only until its lease expires', async () => {
    const queue = createRedisTurnQueue(await connect());
    const session = newSession();
    expect(await enter(queue, session, 'dead', 200)).toBe(true);
    expect(await enter(queue, session, 'next', 5000)).toBe(false);
    await sleep(300);
    expect(await poll(queue, session, 'next')).toBe('head');
    expect(await queue.leave(session, 'dead')).toBe(false); // its lease had expired
    expect(await queue.leave(session, 'next')).toBe(true);
  });

  it('the keys of an abandoned session expire by themselves', async () => {
    const queue = createRedisTurnQueue(await connect());
    expect(await enter(queue, newSession(), 'lost', 100)).toBe(true);
    expect(await turnKeys()).toHaveLength(3);
    await sleep(1_500); // the longest entry's expiry plus one second
    expect(await turnKeys()).toEqual([]);
  });
  it('an enter or leave repeated with the same token (its reply was lost) changes nothing, and leave removes only its own entry', async () => {
    const queue = createRedisTurnQueue(await connect());
    const session = newSession();
    expect(await enter(queue, session, 'a', 5000)).toBe(true);
    expect(await enter(queue, session, 'b', 5000)).toBe(false);
    expect(await enter(queue, session, 'a', 5000)).toBe(true); // repeated: still the head, not queued again
    expect(await enter(queue, session, 'b', 5000)).toBe(false); // repeated: keeps its place behind a
    expect(await redis.raw.zcard(turnQueueKeys(SESSION_KEY_PREFIX, session)[0]!)).toBe(2);
    expect(await queue.leave(session, 'someone-else')).toBe(false);
    expect(await poll(queue, session, 'a')).toBe('head');
    expect(await queue.leave(session, 'a')).toBe(true);
    expect(await queue.leave(session, 'a')).toBe(false); // repeated leave: harmless
    expect(await poll(queue, session, 'b')).toBe('head');
    expect(await queue.leave(session, 'b')).toBe(true);
    expect(await turnKeys()).toEqual([]);
  });

  it('a renewed lease holds the turn past its first expiry; renewing an expired entry says so', async () => {
    const queue = createRedisTurnQueue(await connect());
    const session = newSession();
    expect(await enter(queue, session, 'holder', 300)).toBe(true);
    expect(await enter(queue, session, 'waiter', 5000)).toBe(false);
    for (let i = 0; i < 4; i += 1) {
      await sleep(150);
      expect(await queue.renew(session, 'holder', 300)).toBe(true);
    }
    expect(await poll(queue, session, 'waiter')).toBe('waiting');
    await sleep(400);
    expect(await poll(queue, session, 'waiter')).toBe('head'); // the holder stopped renewing: taken over
    expect(await queue.renew(session, 'holder', 300)).toBe(false);
    await queue.leave(session, 'waiter');
  });
});

describe('session turns across two instances', () => {
  it('keep arrival order across instances: a later message of the releasing instance does not jump the queue', async () => {
    const one = createSessionTurns({ redis: await connect() });
    const two = createSessionTurns({ redis: await connect() });
    const session = newSession();
    const order: string[] = [];
    const first = (await acquire(one, session, far())) as SessionTurn;
    const second = acquire(two, session, far()).then((t) => (order.push('second'), t));
    await sleep(50); // the second has its ticket
    const third = acquire(one, session, far()).then((t) => (order.push('third'), t));
    await sleep(50);
    first.release(); // the third is next in line on this instance, but the second arrived before it
    (await second)?.release();
    (await third)?.release();
    expect(order).toEqual(['second', 'third']);
    await sleep(50); // releases in Redis are sent without waiting for them
    expect(await turnKeys()).toEqual([]);
    expect(one.activeSessions + two.activeSessions).toBe(0);
  });

  it('a message waiting on another instance gives up at its deadline', async () => {
    const one = createSessionTurns({ redis: await connect() });
    const two = createSessionTurns({ redis: await connect() });
    const session = newSession();
    const holder = (await acquire(one, session, far())) as SessionTurn;
    const started = performance.now();
    expect(await acquire(two, session, performance.now() + 300)).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    holder.release();
    await sleep(50);
    expect(await turnKeys()).toEqual([]);
    expect(two.activeSessions).toBe(0);
  });

  it('without a reachable Redis, turns go on in in-process order and each fallback is reported', async () => {
    const fallbacks: string[] = [];
    const turns = createSessionTurns({
      redis: await connect(`redis://127.0.0.1:${await freePort()}`, false),
      events: { fallback: (operation) => fallbacks.push(operation), leaseExpired: () => {} },
    });
    const session = newSession();
    const first = (await acquire(turns, session, far())) as SessionTurn;
    let secondIn = false;
    const second = acquire(turns, session, far()).then((t) => ((secondIn = true), t));
    await sleep(50);
    expect(secondIn).toBe(false);
    first.release();
    (await second)?.release();
    expect(fallbacks).toContain('enter');
    expect(turns.activeSessions).toBe(0);
  });
});
