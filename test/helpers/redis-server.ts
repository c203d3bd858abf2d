/**
 * A real redis-server for tests, on a free loopback port, without persistence unless asked (then
 * as docs/operations.md#redis advises for production: AOF, `noeviction`). `stop()` (SIGKILL) and `start()` can
 * be called mid-test to take Redis away and bring it back on the same port; `pause()` (SIGSTOP) stalls
 * it with its connections open (commands time out, nothing is refused) until `resume()`.
 * The binary is the one test/helpers/global-setup.ts found or fetched for this run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import { freePort } from './free-port.ts';
import { redisAnswersPing } from './redis-ping.ts';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

export { freePort };

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  pause(): void;
  resume(): void;
}

export interface TestRedisOptions {
  /** AOF persistence (`appendfsync everysec`) in this directory, so a restart keeps the data. */
  readonly persistDir?: string;
}

export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  const provided = inject('redisServer');
  // The one line saying what to install; the Redis tests fail with it, they never skip.
  if ('error' in provided) throw new Error(provided.error);
  const binary = provided;

  async function start(): Promise<void> {
    let spawnError: Error | undefined;
    const persistence = options.persistDir === undefined
      ? ['--save', '', '--appendonly', 'no']
      : ['--save', '', '--dir', options.persistDir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction'];
    child = spawn(binary.command, ['--port', String(port), '--bind', '127.0.0.1', ...persistence], {
      stdio: 'ignore',
      env: { ...process.env, ...binary.env },
    });
    child.on('error', (err) => {
      spawnError = err;
    });
    for (let i = 0; i < 100; i += 1) {
      if (await redisAnswersPing(port)) return;
      if (spawnError !== undefined || child.exitCode !== null) break;
      await sleep(50);
    }
    throw new Error(`redis-server (${binary.command}) did not answer on port ${port}${spawnError ? `: ${spawnError.message}` : ''}`);
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
}
