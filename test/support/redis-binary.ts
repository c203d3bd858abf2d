/**
 * Finds a redis-server for the tests, so that `npm test` passes on a fresh machine with no step
 * before it: the one on PATH when there is one, otherwise Debian's packages unpacked (never
 * installed) into a git-ignored cache folder of the repository, fetched once and reused by later
 * runs. `apt-get download` + `dpkg -x` need no system-wide install, only the package registry.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Debian packages whose files make a working redis-server (its binary and two libraries). */
export const REDIS_PACKAGES = ['redis-server', 'redis-tools', 'libjemalloc2', 'liblzf1'] as const;

/** How to start redis-server: the command and what to add to its environment. */
export interface RedisBinary {
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
  /** Where it came from, for the record: `PATH` or the cache folder. */
  readonly source: string;
}

export interface LocateOptions {
  /** The PATH to search first. */
  readonly path: string;
  /** The cache folder, e.g. `<repo>/.cache/redis`. */
  readonly cacheDir: string;
  /** Environment for apt-get and dpkg (their PATH); the process's by default. */
  readonly toolEnv?: NodeJS.ProcessEnv;
}

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** The unpacked binary: exec'd by its redis-server name (a symlink), so argv[0] picks server mode. */
function fromCache(cacheDir: string): RedisBinary | undefined {
  const command = join(cacheDir, 'usr/bin/redis-server');
  if (!existsSync(command)) return undefined;
  const libRoot = join(cacheDir, 'usr/lib');
  const libDirs = existsSync(libRoot) ? readdirSync(libRoot).filter((d) => d.endsWith('-linux-gnu')).map((d) => join(libRoot, d)) : [];
  return { command, env: { LD_LIBRARY_PATH: libDirs.join(delimiter) }, source: cacheDir };
}

function firstLine(err: unknown): string {
  const e = err as { stderr?: string; message?: string; code?: unknown; path?: string };
  if (e.code === 'ENOENT' && e.path !== undefined) return `${e.path} is not installed`;
  const text = ((e.stderr ?? '').trim() || (e.message ?? String(err))).trim();
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'unknown error';
}

async function download(folder: string, env: NodeJS.ProcessEnv): Promise<void> {
  const options = { cwd: folder, env, timeout: 300_000 };
  try {
    await run('apt-get', ['download', ...REDIS_PACKAGES], options);
  } catch {
    // A fresh machine may have no package lists yet.
    await run('apt-get', ['update', '-qq'], options);
    await run('apt-get', ['download', ...REDIS_PACKAGES], options);
  }
}

/** Downloads and unpacks the packages into a private folder, then moves it into place in one rename. */
async function fetchIntoCache(cacheDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const parent = join(cacheDir, '..');
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(join(parent, 'redis-staging-'));
  try {
    const debs = join(staging, 'debs');
    const root = join(staging, 'root');
    mkdirSync(debs);
    mkdirSync(root);
    await download(debs, env);
    for (const file of readdirSync(debs).filter((f) => f.endsWith('.deb'))) {
      await run('dpkg', ['-x', join(debs, file), root], { env });
    }
    try {
      renameSync(root, cacheDir);
    } catch (err) {
      // Another run got there first: its copy is as good as ours.
      if (!existsSync(cacheDir)) throw err;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function works(binary: RedisBinary, env: NodeJS.ProcessEnv): Promise<void> {
  await run(binary.command, ['--version'], { env: { ...env, ...binary.env }, timeout: 10_000 });
}

/**
 * A redis-server that runs, or an Error whose message is ONE line saying what to install.
 * Never throws for a missing binary: the caller decides when to report it (a Redis test fails with it).
 */
export async function locateRedisServer(options: LocateOptions): Promise<RedisBinary | Error> {
  const env = options.toolEnv ?? process.env;
  const found = onPath('redis-server', options.path);
  if (found !== undefined) return { command: found, env: {}, source: 'PATH' };
  try {
    const earlier = fromCache(options.cacheDir);
    if (earlier !== undefined) {
      try {
        await works(earlier, env);
        return earlier;
      } catch {
        // A copy left half-made or from another machine: fetch it again.
        rmSync(options.cacheDir, { recursive: true, force: true });
      }
    }
    await fetchIntoCache(options.cacheDir, env);
    const cached = fromCache(options.cacheDir);
    if (cached === undefined) throw new Error('the packages held no usr/bin/redis-server');
    await works(cached, env);
    return cached;
  } catch (err) {
    return new Error(
      `The Redis tests need redis-server: none is on PATH and fetching Debian's packages into ${options.cacheDir} failed (${firstLine(err)}); install it with "apt-get install redis-server"`,
    );
  }
}
