import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { occupyPort, spawnService, unusedPartyUrls } from '../helpers/service-process.ts';

/**
 * What a person sees when the service cannot start for a reason they can fix: one line on stderr
 * naming what to change, exit code 1, no stack trace.
 */
const SECRETS = { GRAPHQL_AUTHORIZATION: 'Bearer x', GRAPHQL_API_KEY: 'k' };
const dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-start-up-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function failedStart(env: Record<string, string>) {
  const svc = spawnService(env);
  const code = await svc.exited;
  return { code, stdout: svc.stdout(), stderr: svc.stderr() };
}

function expectNoStack(output: string) {
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('EADDRINUSE');
}

describe('a busy port', () => {
  it("the service's PORT: one line naming the port and PORT, exit 1", async () => {
    const held = await occupyPort();
    try {
      const { code, stdout, stderr } = await failedStart({
        ENVIRONMENT: 'qa', HOST: '127.0.0.1', PORT: String(held.port), ...SECRETS, ...unusedPartyUrls(await freePort()),
      });
      expect(code).toBe(1);
      expect(stderr).toBe(`chat-adapter: port ${held.port} is already in use; set PORT to another port\n`);
      expectNoStack(stdout + stderr);
    } finally {
      held.server.close();
    }
  });

  it("an embedded party's port: one line naming the port and LOCAL_STACK_BASE_PORT, exit 1", async () => {
    const held = await occupyPort();
    const { HANDOFF_URL: _startedLocally, ...otherParties } = unusedPartyUrls(await freePort());
    try {
      // The handoff receiver listens on LOCAL_STACK_BASE_PORT + 3.
      const { code, stdout, stderr } = await failedStart({
        ENVIRONMENT: 'local', HOST: '127.0.0.1', PORT: String(await freePort()), LOCAL_DATA_DIR: dataDir,
        LOCAL_STACK_BASE_PORT: String(held.port - 3), ...otherParties,
      });
      expect(code).toBe(1);
      expect(stderr.split('\n')).toEqual([
        `chat-adapter: port ${held.port} is already in use; set LOCAL_STACK_BASE_PORT to another base (the local parties use it + 1..5), or 0 for free ports`,
        '',
      ]);
      expectNoStack(stdout + stderr);
    } finally {
      held.server.close();
    }
  });
});

describe('bad configuration', () => {
  it('names every bad variable in one line, exit 1', async () => {
    const { code, stdout, stderr } = await failedStart({ ENVIRONMENT: 'qa', PORT: 'six thousand', DISABLE_TRACING: 'maybe', ...SECRETS });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'chat-adapter: invalid configuration: PORT: must be a whole number from 0 to 65535, got "six thousand"; ' +
        'DISABLE_TRACING: must be "true" or "false", got "maybe"\n',
    );
  });

  it('a signing secret not in the whsec_ form, or a publishable key without pk_: one line naming each, never the secret, exit 1', async () => {
    const { code, stdout, stderr } = await failedStart({
      ENVIRONMENT: 'qa', ...SECRETS,
      HANDOFF_SIGNING_SECRET: 'an-old-style-secret-0123456789',
      PUBLISHABLE_KEYS: JSON.stringify([{ name: 'widget', key: 'sk_live_0123456789abcdef', origins: ['https://www.example.com'], orgId: '9876543210987654321', propertyIds: ['1234567890123456789'] }]),
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^chat-adapter: invalid configuration: PUBLISHABLE_KEYS: entry 1 \("widget"\): "key" must begin pk_.*; HANDOFF_SIGNING_SECRET: entry 1 must be a Standard Webhooks secret: whsec_ followed by base64.*\n$/);
    expect(stderr.split('\n')).toHaveLength(2);
    expect(stderr).not.toContain('an-old-style-secret');
    expect(stderr).not.toContain('sk_live_0123456789abcdef');
  });
});
