/**
 * What the benchmark's redis-server did while one target was loaded: its own CPU (from /proc), the
 * commands it ran (`total_commands_processed`, and per command from `INFO commandstats`) and its
 * read events (`total_reads_processed`: one per batch of commands a client's socket delivered at
 * once, so commands written together, in one pipeline or the same tick, count once — the nearest
 * figure Redis keeps to a client's round trips). Read before and after a measured turn; the
 * difference over the chats answered is the "per chat" of the row. Targets are loaded one at a
 * time, so the figures are the loaded target's, give or take what the idle ones send meanwhile
 * (their background polls, a handful a second).
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { encodeCommand, replyEnd } from './bare-resp.ts';
import { threadCpuMicros } from './proc-stats.ts';

export interface RedisSample {
  readonly cpuUs: number;
  readonly commands: number;
  readonly reads: number;
  /** Calls per command name (`evalsha`, `zrem`, `xadd`, ...), scripts' inner calls included. */
  readonly calls: ReadonlyMap<string, number>;
}

export interface RedisProbe {
  sample(): Promise<RedisSample>;
  close(): void;
}

/** `INFO stats commandstats` parsed into the figures of a sample. */
export function parseInfo(text: string, cpuUs: number): RedisSample {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  const calls = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1]!, Number(match[2]));
  return { cpuUs, commands: field('total_commands_processed'), reads: field('total_reads_processed'), calls };
}

export async function redisProbe(port: number, pid: number): Promise<RedisProbe> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  const ask = (): Promise<string> =>
    new Promise((resolve, reject) => {
      let pending = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        if (replyEnd(pending, 0) === -1) return;
        socket.off('data', onData);
        socket.off('error', reject);
        // A bulk string: `$<length>\r\n<text>\r\n`.
        resolve(pending.toString('utf8', pending.indexOf('\r\n') + 2, pending.length - 2));
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.write(encodeCommand(['INFO', 'stats', 'commandstats']));
    });
  return {
    async sample() {
      const cpuUs = threadCpuMicros(pid).all;
      return parseInfo(await ask(), cpuUs);
    },
    close: () => socket.destroy(),
  };
}

/** What happened between two samples; the probe's own INFO (one command, one read) left out. */
export function difference(before: RedisSample, after: RedisSample): RedisSample {
  const calls = new Map<string, number>();
  for (const [name, n] of after.calls) {
    const delta = n - (before.calls.get(name) ?? 0) - (name === 'info' ? 1 : 0);
    if (delta > 0) calls.set(name, delta);
  }
  return { cpuUs: after.cpuUs - before.cpuUs, commands: after.commands - before.commands - 1, reads: after.reads - before.reads - 1, calls };
}

/** Sums of several measured turns. */
export function add(a: RedisSample, b: RedisSample): RedisSample {
  const calls = new Map(a.calls);
  for (const [name, n] of b.calls) calls.set(name, (calls.get(name) ?? 0) + n);
  return { cpuUs: a.cpuUs + b.cpuUs, commands: a.commands + b.commands, reads: a.reads + b.reads, calls };
}

export const NO_REDIS_WORK: RedisSample = { cpuUs: 0, commands: 0, reads: 0, calls: new Map() };
