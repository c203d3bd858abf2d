/**
 * `npm run dev`: the service from its sources, restarted on every change (`node --watch`), its log
 * lines made readable by pino-pretty. One process owns the others, so that however it is stopped
 * (Ctrl-C, SIGTERM to npm alone or to the whole group, once or twice) the service closes
 * gracefully and nothing is left running. A shell pipeline (`node --watch ... | pino-pretty`) did
 * not: SIGTERM to npm ended the shell and left the watcher and the service behind.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import PinoPretty from 'pino-pretty';

const ROOT = resolve(import.meta.dirname, '..');

const service = spawn(process.execPath, ['--watch', 'src/server.ts'], { cwd: ROOT, stdio: ['inherit', 'pipe', 'inherit'] });
service.stdout.pipe(PinoPretty({ singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }));

let stopping = false;
const stop = () => {
  if (stopping) return; // the second of a doubled signal (npm forwards the group's): one close is under way
  stopping = true;
  service.kill('SIGTERM');
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);

service.on('exit', (code, signal) => {
  process.exitCode = stopping ? 0 : (code ?? (signal === null ? 1 : 128));
});
