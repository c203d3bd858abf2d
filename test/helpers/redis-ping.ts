/** Used by the Redis test helper and by the benchmark (no vitest import, so scripts can load it). */
import { createConnection } from 'node:net';

/** True when a Redis on this loopback port answers PING (raw socket: no client library needed). */
export function redisAnswersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
