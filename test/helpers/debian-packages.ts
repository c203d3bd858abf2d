/**
 * Debian packages unpacked (never installed) into a git-ignored cache folder of the repository, so
 * that tests can use a real program on a fresh machine with no step before them: `apt-get download`
 * + `dpkg -x` need no system-wide install, only the package registry. Fetched once, reused later.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** The program named `name` on `path`, if any. */
export function onPath(name: string, path: string): string | undefined {
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

/** The first meaningful line of a failed command, for a one-line report. */
export function firstLine(err: unknown): string {
  const e = err as { stderr?: string; message?: string; code?: unknown; path?: string };
  if (e.code === 'ENOENT' && e.path !== undefined) return `${e.path} is not installed`;
  const text = ((e.stderr ?? '').trim() || (e.message ?? String(err))).trim();
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'unknown error';
}

/** apt's words for an archive it could not reach (no network, no DNS, a proxy refusing). */
const UNREACHABLE = /temporary failure resolving|could not resolve|failed to fetch|unable to connect|network is unreachable|could not connect|connection (?:failed|timed out|refused)/i;

/**
 * One line saying why apt-get failed: that the archive could not be reached (offline), or apt's
 * first error (`E:`) line. Its warnings (`W:`, e.g. that root downloads unsandboxed as `_apt`) come
 * first on stderr but are never the cause.
 */
export function aptFailure(err: unknown, packages: readonly string[]): Error {
  const stderr = (err as { stderr?: unknown }).stderr;
  const lines = typeof stderr === 'string' ? stderr.split('\n').map((line) => line.trim()) : [];
  const what = `Debian's ${packages.join(', ')} package${packages.length === 1 ? '' : 's'}`;
  if (lines.some((line) => UNREACHABLE.test(line))) {
    return new Error(`could not download ${what}: the Debian package archive cannot be reached (offline?)`, { cause: err });
  }
  const error = lines.find((line) => line.startsWith('E:'));
  return new Error(`could not download ${what}: ${error === undefined ? firstLine(err) : error.slice(2).trim()}`, { cause: err });
}

async function download(folder: string, packages: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (packages.length === 0) return;
  const options = { cwd: folder, env, timeout: 300_000 };
  try {
    await run('apt-get', ['download', ...packages], options);
  } catch {
    // A fresh machine may have no package lists yet.
    try {
      await run('apt-get', ['update', '-qq'], options);
      await run('apt-get', ['download', ...packages], options);
    } catch (err) {
      throw aptFailure(err, packages);
    }
  }
}

/** Packages from an APT source the machine does not list (e.g. Debian 12's bookworm-backports). */
export interface ExtraDebianSource {
  /** One sources.list line, e.g. `deb [signed-by=...] http://deb.debian.org/debian bookworm-backports main`. */
  readonly line: string;
  readonly packages: readonly string[];
}

/**
 * `apt-get download` from `source` alone: its own sources list, package lists and cache in
 * `scratch`, so the machine's APT configuration is neither read for sources nor changed.
 */
async function downloadFromOwnSource(folder: string, scratch: string, source: ExtraDebianSource, env: NodeJS.ProcessEnv): Promise<void> {
  const lists = join(scratch, 'lists');
  const cache = join(scratch, 'cache');
  mkdirSync(join(lists, 'partial'), { recursive: true });
  mkdirSync(join(cache, 'archives', 'partial'), { recursive: true });
  const sourcesList = join(scratch, 'sources.list');
  writeFileSync(sourcesList, `${source.line}\n`);
  const apt = [
    ['Dir::Etc::SourceList', sourcesList],
    ['Dir::Etc::SourceParts', '/dev/null'],
    ['Dir::State::Lists', lists],
    ['Dir::Cache', cache],
    // No drop to APT's _apt user for the download: it cannot enter the private (0700) staging folder.
    ['APT::Sandbox::User', 'root'],
  ].flatMap(([key, value]) => ['-o', `${key}=${value}`]);
  const options = { cwd: folder, env, timeout: 300_000 };
  await run('apt-get', [...apt, 'update', '-qq'], options);
  await run('apt-get', [...apt, 'download', ...source.packages], options);
}

/**
 * Downloads and unpacks `packages` (from the machine's APT sources) and each of `extra` (from its
 * own source) into a private folder, then moves it to `cacheDir` in one rename.
 */
export async function fetchDebianPackages(
  packages: readonly string[],
  cacheDir: string,
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly ExtraDebianSource[] = [],
): Promise<void> {
  const parent = join(cacheDir, '..');
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(join(parent, 'staging-'));
  try {
    const debs = join(staging, 'debs');
    const root = join(staging, 'root');
    mkdirSync(debs);
    mkdirSync(root);
    await download(debs, packages, env);
    for (const [i, source] of extra.entries()) await downloadFromOwnSource(debs, join(staging, `apt-${i}`), source, env);
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
