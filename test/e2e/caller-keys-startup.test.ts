import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_ENTRY } from '../helpers/service-process.ts';

const SECRET = 'bad-entry-SECRET-0123456789';

describe('a bad CALLER_API_KEYS at start-up', () => {
  it('stops the process with one line naming the variable, never the key', () => {
    const run = spawnSync(process.execPath, [SERVICE_ENTRY], {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, ENVIRONMENT: 'local', PORT: '0', CALLER_API_KEYS: `web:${SECRET}:not-an-org-id` },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('chat-adapter: invalid configuration: CALLER_API_KEYS: entry 1 ("web"): each orgId must be 19 digits or standard Base64, separated by |\n');
    expect(run.stderr).not.toContain(SECRET);
  });
});
