/**
 * A replica of a test Redis (test/helpers/redis-server.ts): a second redis-server on a free
 * loopback port started with `--replicaof`, ready once its replication link is up. `pause()` stops
 * the process (SIGSTOP), so the primary's WAIT gets no acknowledgement from it; `resume()` lets it go.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { freePort } from './free-port.ts';

export interface TestReplica {
  readonly port: number;
  /** A plain client on the replica (reads what was replicated). */
  readonly client: Redis;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export async function startTestReplica(primaryPort: number): Promise<TestReplica> {
  const provided = inject('redisServer');
  if ('error' in provided) throw new Error(provided.error);
  const port = await freePort();
  // A replica writes the primary's snapshot to its directory at the first sync: a temporary one.
  const dir = mkdtempSync(join(tmpdir(), 'redis-replica-'));
  const child: ChildProcess = spawn(
    provided.command,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--replicaof', '127.0.0.1', String(primaryPort)],
    { stdio: 'ignore', env: { ...process.env, ...provided.env } },
  );
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 100 });
  // Refused while it starts and after it stops: the readiness loop below asks again.
  client.on('error', () => {});
  const stop = async () => {
    client.disconnect();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Up to 15 s: the first sync forks the primary, slow on a machine busy with other tests.
  for (let i = 0; i < 300; i += 1) {
    const info = await client.info('replication').catch(() => '');
    if (/master_link_status:up/.test(info)) {
      return { port, client, pause: () => child.kill('SIGSTOP'), resume: () => child.kill('SIGCONT'), stop };
    }
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  throw new Error(`redis replica on port ${port} did not link to the primary on ${primaryPort}`);
}
