import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLocalTurnQueue, type LocalTurn } from '../../src/turns/local-turn-queue.ts';

const far = () => performance.now() + 60_000;

describe('the in-process turn queue', () => {
  it('gives the turn to the messages of one session one at a time, in arrival order', async () => {
    const queue = createLocalTurnQueue();
    const order: string[] = [];
    const turn = async (name: string, workMs: number) => {
      const held = (await queue.acquire('s1', far())) as LocalTurn;
      order.push(`${name} starts`);
      await sleep(workMs);
      order.push(`${name} ends`);
      held.release();
    };
    // The first message works longest: without turns the others would finish first.
    await Promise.all([turn('m1', 60), turn('m2', 30), turn('m3', 0)]);
    expect(order).toEqual(['m1 starts', 'm1 ends', 'm2 starts', 'm2 ends', 'm3 starts', 'm3 ends']);
  });

  it('never makes one session wait for another (no global lock)', async () => {
    const queue = createLocalTurnQueue();
    const busy = await queue.acquire('s1', far());
    const other = await Promise.race([queue.acquire('s2', far()), sleep(200).then(() => 'waited')]);
    expect(other).not.toBe('waited');
    busy?.release();
    (other as LocalTurn).release();
  });

  it('a message whose deadline passes while waiting leaves the line, and the order of the rest holds', async () => {
    const queue = createLocalTurnQueue();
    const first = (await queue.acquire('s1', far())) as LocalTurn;
    const impatient = queue.acquire('s1', performance.now() + 50);
    let thirdHasTurn = false;
    const third = queue.acquire('s1', far()).then((t) => {
      thirdHasTurn = true;
      return t as LocalTurn;
    });
    expect(await impatient).toBeUndefined();
    await sleep(30);
    expect(thirdHasTurn).toBe(false); // still behind the first, not let in by the one that left
    first.release();
    (await third).release();
    expect(queue.activeSessions).toBe(0);
  });

  it('refuses at once a message whose deadline has already passed behind a busy session', async () => {
    const queue = createLocalTurnQueue();
    const first = (await queue.acquire('s1', far())) as LocalTurn;
    expect(await queue.acquire('s1', performance.now() - 1)).toBeUndefined();
    first.release();
    expect(queue.activeSessions).toBe(0);
  });

  it('keeps nothing for idle sessions: 10,000 sessions served leave no entry', async () => {
    const queue = createLocalTurnQueue();
    await Promise.all(
      Array.from({ length: 10_000 }, async (_, i) => {
        const key = `session-${i % 2_500}`; // four messages per session, overlapping
        const turn = await queue.acquire(key, far());
        await sleep(0);
        turn?.release();
      }),
    );
    expect(queue.activeSessions).toBe(0);
  });

  it('a release called twice lets only one waiter go', async () => {
    const queue = createLocalTurnQueue();
    const first = (await queue.acquire('s1', far())) as LocalTurn;
    const second = queue.acquire('s1', far());
    let thirdIn = false;
    const third = queue.acquire('s1', far()).then((t) => {
      thirdIn = true;
      return t;
    });
    first.release();
    first.release();
    const held = (await second) as LocalTurn;
    await sleep(20);
    expect(thirdIn).toBe(false);
    held.release();
    (await third)?.release();
    expect(queue.activeSessions).toBe(0);
  });
});
