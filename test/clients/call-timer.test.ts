import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pool } from 'undici';
import { startCallTimer } from '../../src/clients/call-timer.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startCallTimer: the timeout signal of one call', () => {
  it('tells its listeners once, with the TimeoutError AbortSignal.timeout would give, when the limit is reached', async () => {
    const timer = startCallTimer({ ms: 20, byDeadline: false });
    const heard: unknown[] = [];
    timer.signal.once('abort', () => heard.push((timer.signal as unknown as { reason: unknown }).reason));
    await wait(60);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toBeInstanceOf(DOMException);
    expect((heard[0] as DOMException).name).toBe('TimeoutError');
  });

  it('tells nobody once cleared (the call settled first)', async () => {
    const timer = startCallTimer({ ms: 20, byDeadline: false });
    let heard = 0;
    timer.signal.on('abort', () => heard++);
    timer.clear();
    await wait(60);
    expect(heard).toBe(0);
  });

  it('forgets a removed listener, and tells a listener added after the limit at once', async () => {
    const timer = startCallTimer({ ms: 10, byDeadline: false });
    let removed = 0;
    const listener = () => removed++;
    timer.signal.on('abort', listener);
    timer.signal.removeListener('abort', listener);
    await wait(40);
    expect(removed).toBe(0);
    let late = 0;
    timer.signal.on('abort', () => late++);
    expect(late).toBe(1);
  });
});

describe('undici takes it as the signal of a request (real loopback HTTP)', () => {
  let server: Server;
  let pool: Pool;
  beforeAll(async () => {
    // Answers /slow after 500 ms, anything else at once.
    server = createServer((req, res) => setTimeout(() => res.end('ok'), req.url === '/slow' ? 500 : 0));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await pool.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('aborts a call that outlives its limit with the TimeoutError', async () => {
    const timer = startCallTimer({ ms: 50, byDeadline: false });
    const started = performance.now();
    const error = await pool.request({ path: '/slow', method: 'GET', signal: timer.signal }).catch((err: unknown) => err);
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(400);
  });

  it('leaves a call that settles in time alone, and its timer is cleared', async () => {
    const timer = startCallTimer({ ms: 200, byDeadline: false });
    const res = await pool.request({ path: '/fast', method: 'GET', signal: timer.signal });
    expect(await res.body.text()).toBe('ok');
    timer.clear();
    await wait(250);
    // Nothing fired after the clear: a listener added now is not told at once.
    let late = 0;
    timer.signal.on('abort', () => late++);
    expect(late).toBe(0);
  });
});
