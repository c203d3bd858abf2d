import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { freePort } from '../helpers/redis-server.ts';
import { REPO_ROOT, spawnService, unusedPartyUrls } from '../helpers/service-process.ts';

/**
 * The production image installs `npm ci --omit=dev`. This runs the real process as production does
 * (ENVIRONMENT=qa), records every module it loads from start to graceful stop, and checks each one
 * against the lock file: no module may come from a package that `--omit=dev` leaves out, and the
 * embedded local stack (and with it natural and mercurius) is never loaded.
 */
interface LockPackage { dev?: boolean }
const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
const tmp = mkdtempSync(join(tmpdir(), 'chat-adapter-modules-'));
let files: string[] = [];

/** Dev-only packages loaded when present and skipped when absent (a require inside try/catch). */
const OPTIONAL_WHEN_PRESENT: Readonly<Record<string, string>> = {
  'node_modules/supports-color': "debug (ioredis's logger) tries it for coloured output and goes on without it",
  'node_modules/has-flag': 'supports-color requires it',
};

/** `node_modules/a/node_modules/@s/b/lib/x.js` -> `node_modules/a/node_modules/@s/b` (its lock-file key). */
function lockKey(file: string): string | undefined {
  const parts = relative(REPO_ROOT, file).split(sep);
  const last = parts.lastIndexOf('node_modules');
  if (last < 0) return undefined;
  const nameLength = parts[last + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, last + 1 + nameLength).join('/');
}

beforeAll(async () => {
  const record = join(tmp, 'modules.txt');
  const svc = spawnService(
    { ENVIRONMENT: 'qa', HOST: '127.0.0.1', PORT: '0', GRAPHQL_AUTHORIZATION: 'Bearer x', GRAPHQL_API_KEY: 'k', RECORD_LOADED_MODULES: record, ...unusedPartyUrls(await freePort()) },
    ['--import', './test/helpers/record-loaded-modules.ts'],
  );
  await svc.untilOutput('chat adapter listening');
  svc.child.kill('SIGTERM');
  expect(await svc.exited, svc.stdout() + svc.stderr()).toBe(0);
  files = readFileSync(record, 'utf8').split('\n').filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the production process (ENVIRONMENT=qa)', () => {
  it('loads the service built into dist/ (src/, steps/, schemas/), never the embedded local stack', () => {
    const own = files.filter((file) => lockKey(file) === undefined).map((file) => relative(REPO_ROOT, file));
    expect(own).toContain(join('dist', 'src', 'server.js'));
    expect(own).toContain(join('dist', 'steps', 'chat-pipeline.js'));
    expect(own.filter((file) => file.startsWith(join('dist', 'src', 'local')))).toEqual([]);
    // Nothing runs from the TypeScript sources: no type stripping (and its compiler) in production.
    expect(own.filter((file) => file.endsWith('.ts') && !file.startsWith(`test${sep}`))).toEqual([]);
  });

  it('loads no module that npm ci --omit=dev leaves out', () => {
    const keys = [...new Set(files.map(lockKey).filter((key) => key !== undefined))];
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) expect(lock.packages[key], key).toBeDefined();
    const devOnly = keys.filter((key) => lock.packages[key]?.dev === true && OPTIONAL_WHEN_PRESENT[key] === undefined);
    expect(devOnly).toEqual([]);
  });

  it('has natural and mercurius as development dependencies only (the local stack uses them)', () => {
    const production: Record<string, string> = packageJson.dependencies;
    const development: Record<string, string> = packageJson.devDependencies;
    for (const name of ['natural', 'mercurius']) {
      expect(production[name], name).toBeUndefined();
      expect(development[name], name).toBeDefined();
      expect(lock.packages[`node_modules/${name}`]?.dev, name).toBe(true);
    }
  });
});
