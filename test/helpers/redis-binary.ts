/**
 * Finds the Redis programs the tests start, so that `npm test` passes on a fresh machine with no
 * step before it: the server and its command-line client on PATH when both are there, otherwise
 * Debian's packages unpacked (never installed) into a git-ignored cache folder of the repository,
 * fetched once and reused by later runs. `apt-get download` + `dpkg -x` need no system-wide
 * install, only the package registry.
 *
 * Two flavours: Redis 7 (Debian 12's `redis-server` and `redis-tools`) and Valkey 8.0 (the
 * `valkey-server` and `valkey-tools` of Debian 12's bookworm-backports, fetched through an APT
 * source list of its own; Debian 13's Valkey needs a newer glibc than Debian 12 has).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fetchDebianPackages, firstLine, onPath, run, type ExtraDebianSource } from './debian-packages.ts';

export const REDIS_FLAVOURS = ['redis', 'valkey'] as const;
export type RedisFlavour = (typeof REDIS_FLAVOURS)[number];

/** The Debian packages whose files make a working redis-server and redis-cli (binaries and two libraries). */
export const REDIS_PACKAGES = ['redis-server', 'redis-tools', 'libjemalloc2', 'liblzf1'] as const;

const BACKPORTS = 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main';

interface FlavourPackages {
  readonly server: string;
  readonly cli: string;
  /** From the machine's own APT sources. */
  readonly packages: readonly string[];
  readonly extra: readonly ExtraDebianSource[];
  /** What the one-line error tells a person to run. */
  readonly install: string;
}

const FLAVOURS: Readonly<Record<RedisFlavour, FlavourPackages>> = {
  redis: { server: 'redis-server', cli: 'redis-cli', packages: REDIS_PACKAGES, extra: [], install: 'apt-get install redis-server redis-tools' },
  valkey: {
    server: 'valkey-server',
    cli: 'valkey-cli',
    packages: ['libjemalloc2', 'liblzf1'],
    extra: [{ line: BACKPORTS, packages: ['valkey-server', 'valkey-tools'] }],
    install: 'apt-get install -t bookworm-backports valkey-server valkey-tools (Debian 12 with bookworm-backports in its APT sources)',
  },
};

/** The flavour a run asked for with REDIS_FLAVOUR (`redis` when unset), or an Error saying what is allowed. */
export function redisFlavourFrom(value: string | undefined): RedisFlavour | Error {
  if (value === undefined || value === '') return 'redis';
  const found = REDIS_FLAVOURS.find((f) => f === value);
  return found ?? new Error(`REDIS_FLAVOUR must be one of ${REDIS_FLAVOURS.join(', ')} (or unset for redis), not ${JSON.stringify(value.slice(0, 40))}`);
}

/** How to start the server and its client: the commands and what to add to their environment. */
export interface RedisBinary {
  readonly flavour: RedisFlavour;
  /** The server (`redis-server`, `valkey-server`); with `--sentinel` it is a Sentinel. */
  readonly command: string;
  /** The command-line client (`redis-cli`, `valkey-cli`), for `--cluster create`. */
  readonly cli: string;
  readonly env: Readonly<Record<string, string>>;
  /** The server's `--version` line, e.g. `Valkey server v=8.0.1 ...`. */
  readonly version: string;
  /** Where it came from, for the record: `PATH` or the cache folder. */
  readonly source: string;
}

export interface LocateOptions {
  /** `redis` unless given. */
  readonly flavour?: RedisFlavour;
  /** The PATH to search first. */
  readonly path: string;
  /** The cache folder of this flavour, e.g. `<repo>/.cache/redis`. */
  readonly cacheDir: string;
  /** Environment for apt-get and dpkg (their PATH); the process's by default. */
  readonly toolEnv?: NodeJS.ProcessEnv;
}

type Unchecked = Omit<RedisBinary, 'version'>;

/** The unpacked binaries: exec'd by their own names (symlinks), so argv[0] picks server mode. */
function fromCache(flavour: RedisFlavour, cacheDir: string): Unchecked | undefined {
  const { server, cli } = FLAVOURS[flavour];
  const command = join(cacheDir, 'usr/bin', server);
  const client = join(cacheDir, 'usr/bin', cli);
  if (!existsSync(command) || !existsSync(client)) return undefined;
  const libRoot = join(cacheDir, 'usr/lib');
  const libDirs = existsSync(libRoot) ? readdirSync(libRoot).filter((d) => d.endsWith('-linux-gnu')).map((d) => join(libRoot, d)) : [];
  return { flavour, command, cli: client, env: { LD_LIBRARY_PATH: libDirs.join(delimiter) }, source: cacheDir };
}

/** Both programs start; the server's version line. */
async function works(binary: Unchecked, env: NodeJS.ProcessEnv): Promise<RedisBinary> {
  const options = { env: { ...env, ...binary.env }, timeout: 10_000 };
  const { stdout } = await run(binary.command, ['--version'], options);
  await run(binary.cli, ['--version'], options);
  return { ...binary, version: stdout.trim() };
}

/**
 * A server and client that run, or an Error whose message is ONE line saying what to install.
 * Never throws for a missing binary: the caller decides when to report it (a Redis test fails with it).
 */
export async function locateRedisServer(options: LocateOptions): Promise<RedisBinary | Error> {
  const flavour = options.flavour ?? 'redis';
  const wanted = FLAVOURS[flavour];
  const env = options.toolEnv ?? process.env;
  const command = onPath(wanted.server, options.path);
  const cli = onPath(wanted.cli, options.path);
  try {
    // Half an installation on PATH (a server without its client) is passed over for the cache.
    if (command !== undefined && cli !== undefined) return await works({ flavour, command, cli, env: {}, source: 'PATH' }, env);
    const earlier = fromCache(flavour, options.cacheDir);
    if (earlier !== undefined) {
      try {
        return await works(earlier, env);
      } catch {
        // A copy left half-made or from another machine: fetch it again.
        rmSync(options.cacheDir, { recursive: true, force: true });
      }
    }
    await fetchDebianPackages(wanted.packages, options.cacheDir, env, wanted.extra);
    const cached = fromCache(flavour, options.cacheDir);
    if (cached === undefined) throw new Error(`the packages held no usr/bin/${wanted.server} and usr/bin/${wanted.cli}`);
    return await works(cached, env);
  } catch (err) {
    const where = command !== undefined && cli !== undefined ? `the ones on PATH do not start` : `they are not both on PATH and fetching Debian's packages into ${options.cacheDir} failed`;
    return new Error(`The ${flavour === 'redis' ? 'Redis' : 'Valkey'} tests need ${wanted.server} and ${wanted.cli}: ${where} (${firstLine(err)}); install them with "${wanted.install}"`);
  }
}
