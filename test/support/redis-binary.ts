/**
 * Finds a redis-server for the tests, so that `npm test` passes on a fresh machine with no step
 * before it: the one on PATH when there is one, otherwise Debian's packages unpacked (never
 * installed) into a git-ignored cache folder of the repository, fetched once and reused by later
 * runs. `apt-get download` + `dpkg -x` need no system-wide install, only the package registry.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fetchDebianPackages, firstLine, onPath, run } from './debian-packages.ts';

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

/** The unpacked binary: exec'd by its redis-server name (a symlink), so argv[0] picks server mode. */
function fromCache(cacheDir: string): RedisBinary | undefined {
  const command = join(cacheDir, 'usr/bin/redis-server');
  if (!existsSync(command)) return undefined;
  const libRoot = join(cacheDir, 'usr/lib');
  const libDirs = existsSync(libRoot) ? readdirSync(libRoot).filter((d) => d.endsWith('-linux-gnu')).map((d) => join(libRoot, d)) : [];
  return { command, env: { LD_LIBRARY_PATH: libDirs.join(delimiter) }, source: cacheDir };
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
    await fetchDebianPackages(REDIS_PACKAGES, options.cacheDir, env);
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
