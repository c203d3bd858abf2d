/**
 * TLS and credentials reach Redis as configured (docs/configuration.md#shared-state-and-the-handoff-outbox):
 * a real redis-server that speaks TLS only, with a certificate from a private CA and a password,
 * reached through the configuration the service reads (`rediss://`, REDIS_TLS_CA_FILE,
 * REDIS_PASSWORD, REDIS_USERNAME). Without the CA, or with a wrong password, the connection never
 * answers, and no password shows in what is reported.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { readRedisTarget } from '../../src/config/redis-target.ts';
import { connectRedis, hasAnswered } from '../../src/shared-state/redis-connection.ts';
import { freePort } from '../helpers/free-port.ts';

const PASSWORD = 'tls-test-pa55word-9c1d';
let dir: string;
let port: number;
let server: ChildProcess;

/** A CA and a server certificate for 127.0.0.1 signed by it (openssl, as any operator would). */
function makeCertificates(into: string): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: into, stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=chat-adapter test CA', '-days', '1');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(into, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '1', '-extfile', 'ext.cnf');
}

beforeAll(async () => {
  const provided = inject('redisServer');
  if ('error' in provided) throw new Error(provided.error);
  dir = mkdtempSync(join(tmpdir(), 'redis-tls-'));
  makeCertificates(dir);
  port = await freePort();
  server = spawn(provided.command, [
    '--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no',
    '--tls-cert-file', join(dir, 'server.crt'), '--tls-key-file', join(dir, 'server.key'), '--tls-ca-cert-file', join(dir, 'ca.crt'),
    '--tls-auth-clients', 'no', '--requirepass', PASSWORD,
  ], { stdio: 'ignore', env: { ...process.env, ...provided.env } });
  // An ACL user besides the default one.
  const admin = connectRedis(readRedisTarget({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_PASSWORD: PASSWORD, REDIS_TLS_CA_FILE: join(dir, 'ca.crt') })!);
  try {
    for (let i = 0; i < 100 && admin.status !== 'ready'; i += 1) await sleep(50);
    await admin.call('ACL', 'SETUSER', 'chat', 'on', `>${PASSWORD}-chat`, '~*', '+@all');
  } finally {
    admin.disconnect();
  }
}, 30_000);
afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    const exited = once(server, 'exit');
    server.kill('SIGKILL');
    await exited;
  }
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Connects with the configuration `env` gives; resolves with what it reached within 1.5 s. */
async function reach(env: Record<string, string>) {
  const outages: Error[] = [];
  const client = connectRedis(readRedisTarget(env)!, { onOutage: (err) => outages.push(err) });
  try {
    for (let i = 0; i < 30 && client.status !== 'ready'; i += 1) await sleep(50);
    const pong = client.status === 'ready' ? await client.ping() : undefined;
    return { pong, answered: hasAnswered(client), outages };
  } finally {
    client.disconnect();
  }
}

describe('Redis over TLS with a password', () => {
  it('answers with the private CA and the password, in the URL or beside it, as the default user or an ACL user', async () => {
    const ca = { REDIS_TLS_CA_FILE: join(dir, 'ca.crt') };
    expect(await reach({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_PASSWORD: PASSWORD, ...ca })).toMatchObject({ pong: 'PONG', answered: true });
    expect(await reach({ REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${port}`, ...ca })).toMatchObject({ pong: 'PONG', answered: true });
    expect(await reach({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_TLS: 'true', REDIS_USERNAME: 'chat', REDIS_PASSWORD: `${PASSWORD}-chat`, ...ca })).toMatchObject({ pong: 'PONG', answered: true });
  });

  it('never answers without the CA (the certificate is not trusted) or with a wrong password, and reports no password', async () => {
    const untrusted = await reach({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_PASSWORD: PASSWORD });
    expect(untrusted).toMatchObject({ pong: undefined, answered: false });
    expect(untrusted.outages).toHaveLength(1);
    const wrong = await reach({ REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_PASSWORD: 'not-the-password-at-all', REDIS_TLS_CA_FILE: join(dir, 'ca.crt') });
    expect(wrong).toMatchObject({ pong: undefined, answered: false });
    expect(wrong.outages.length).toBeGreaterThanOrEqual(1);
    for (const err of [...untrusted.outages, ...wrong.outages]) expect(err.message).not.toMatch(/pa55word|not-the-password/);
  });
});
