/**
 * A loopback port free at the time of asking. Kept free of vitest so that the benchmark
 * (scripts/bench/) uses the same helper as the tests.
 *
 * Chosen below the kernel's ephemeral range (`ip_local_port_range`), not by `listen(0)`: a port the
 * kernel handed out and the probe let go can be handed out again to the next `listen(0)` (a service's
 * embedded parties bind port 0) before the test binds it, and the service then exits "port already in
 * use". A port below that range is never handed out by the kernel, only by this helper.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first port of the kernel's ephemeral range (Linux); 32768 where it cannot be read. */
function ephemeralLow(): number {
  try {
    const low = Number.parseInt(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0] ?? '', 10);
    return Number.isInteger(low) ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const SPAN = 10_000;
const LOW = ephemeralLow();

async function tryListen(port: number): Promise<number | undefined> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err as Error))]);
  } catch {
    return undefined;
  }
  const address = server.address();
  server.close();
  await once(server, 'close');
  return address === null || typeof address === 'string' ? undefined : address.port;
}

/**
 * Where this process hands out ports next: each process (a vitest worker, a benchmark) starts at its
 * own random place in the span and walks down from it, so it never hands the same port out twice
 * and two processes rarely meet.
 */
let next = Math.floor(Math.random() * SPAN);

export async function freePort(): Promise<number> {
  if (LOW > SPAN + 1024) {
    for (let attempt = 0; attempt < 200; attempt++) {
      next = (next + 1) % SPAN;
      const port = await tryListen(LOW - 1 - next);
      if (port !== undefined) return port;
    }
  }
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free loopback port');
  return port;
}
