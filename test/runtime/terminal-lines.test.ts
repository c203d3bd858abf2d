import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { terminalLine } from '../../src/telemetry/terminal-lines.ts';
import { onPath } from '../helpers/debian-packages.ts';
import { freePort } from '../helpers/redis-server.ts';
import { REPO_ROOT, SERVICE_ENTRY, spawnService, unusedPartyUrls } from '../helpers/service-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'terminal-lines-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** What pino writes for `fields` and `msg`, as one JSON line. */
function pinoLine(fields: object, msg: string, level: 'info' | 'warn' = 'info'): string {
  let line = '';
  pino({ base: { service: 'chat-adapter' }, timestamp: () => ',"time":"2026-11-28T12:04:05.123Z"' }, { write: (l: string) => (line = l) })[level](fields, msg);
  return line.trimEnd();
}

// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('log lines on a terminal', () => {
  it('are one short line each: time, level, message, then the fields', () => {
    expect(terminalLine(pinoLine({ url: 'http://127.0.0.1:6000', environment: 'local' }, 'chat adapter listening'))).toBe(
      '12:04:05 INFO  chat adapter listening url=http://127.0.0.1:6000 environment=local\n',
    );
    expect(terminalLine(pinoLine({ port: 6080, reason: 'EADDRINUSE' }, 'no port for browsers', 'warn'))).toBe('12:04:05 WARN  no port for browsers port=6080 reason=EADDRINUSE\n');
    expect(terminalLine(pinoLine({ steps: { a: 1 }, note: 'two words' }, 'chat'))).toBe('12:04:05 INFO  chat steps={"a":1} note="two words"\n');
  });

  it('set the browser addresses apart, on lines of their own', () => {
    const block = plain(terminalLine(pinoLine({ playground: 'http://127.0.0.1:6080/playground/', docs: 'http://127.0.0.1:6080/docs', port: 6080 }, 'open in a browser')));
    expect(block).toBe('\n  ➜ open in a browser\n    playground:    http://127.0.0.1:6080/playground/\n    API reference: http://127.0.0.1:6080/docs\n\n');
  });

  it('pass on a line that is not a JSON object as it is', () => {
    expect(terminalLine('not json')).toBe('not json');
    expect(terminalLine('[1,2]')).toBe('[1,2]');
  });
});

describe('the service, by what its stdout is', () => {
  const env = async () => ({ ENVIRONMENT: 'qa', HOST: '127.0.0.1', PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'info', GRAPHQL_AUTHORIZATION: 'a', GRAPHQL_API_KEY: 'b', ...unusedPartyUrls(await freePort()) });

  it('a pipe gets JSON lines', async () => {
    const svc = spawnService(await env());
    await svc.untilOutput('chat adapter listening');
    svc.child.kill('SIGTERM');
    await svc.exited;
    const listening = svc.stdout().split('\n').find((line) => line.includes('chat adapter listening'));
    expect(JSON.parse(listening!)).toMatchObject({ level: 30, msg: 'chat adapter listening' });
  });

  it('a terminal gets readable lines, the browser addresses set apart', async () => {
    // util-linux `script` gives the service a pseudo-terminal as stdout, as a shell's `npm start` has.
    const script = onPath('script', process.env['PATH'] ?? '');
    expect(script, 'util-linux `script` is needed (Debian: bsdutils)').toBeDefined();
    const port = await freePort();
    const variables = { ...(await env()), PLAYGROUND: 'true', PLAYGROUND_PORT: String(port) };
    const command = `${process.execPath} ${SERVICE_ENTRY}`;
    const child = spawn(script!, ['-qefc', command, '/dev/null'], { cwd: REPO_ROOT, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', TERM: 'dumb', ...variables }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!plain(out).includes('API reference:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    await once(child, 'exit');
    const text = plain(out).replace(/\r/g, '');
    expect(text).toMatch(/^\d\d:\d\d:\d\d INFO {2}chat adapter listening url=http:\/\/127\.0\.0\.1:\d+ environment=qa/m);
    expect(text).toContain(`\n  ➜ open in a browser\n    playground:    http://127.0.0.1:${port}/playground/\n    API reference: http://127.0.0.1:${port}/docs\n`);
    expect(text).not.toContain('"msg"');
  });
});
