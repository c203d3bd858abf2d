/**
 * `npm run bench`: the service against a bare pass-through baseline, side by side, on the same
 * zero-delay downstream stubs (their own process). In each round every target (the baseline and
 * one service process per variant) is started fresh, its idle memory read, warmed up, then loaded
 * in turns (A B C, B C A, C A B, ...) so that drift on a shared machine, and the place in the
 * order, hit them alike. Ratios are service /
 * baseline of the same round, then the median over rounds.
 *
 *   npm run bench -- [--quick] [--rounds 3] [--seconds 8] [--slices 4] [--warmup 15] [--turn-warmup 2] [--connections 20]
 *                    [--rate 1500]
 *                    [--variants tracing,notrace | --all] [--node-args=--max-semi-space-size=32 ...]
 *                    [--cpu-prof] [--compare ../other-checkout] [--label before] [--stdout file|pipe]
 *                    [--pairs redis:redis-noceilings,stream:stream@other-checkout] [--first-round 1] [--out bench-results/latest.json]
 *
 * Variants: see variants.ts. `--compare DIR` also runs each variant from another checkout (with its
 * node_modules), e.g. the code before a change, in the same rounds: the fairest before/after.
 * `--pairs a:b` prints a's CPU per chat over b's, round by round and their median (and, with Redis,
 * the difference in redis-server's commands, read events and CPU per chat: redis-stats.ts).
 * The figures go as JSON where `--out` says (default bench-results/latest.json, git-ignored; a
 * relative path is taken from the repository's root): the repository keeps no run output.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { timeToFirstText } from './first-text.ts';
import { load } from './load.ts';
import { startNode, startRedis, startRedisCluster, type Started } from './processes.ts';
import { memory, threadCpuMicros, type ThreadCpu } from './proc-stats.ts';
import { add, difference, NO_REDIS_WORK, redisProbe, type RedisProbe, type RedisSample } from './redis-stats.ts';
import { ROW_HEADER, comparePairs, formatPairs, formatRow, formatSummary, summarize, type Row } from './report.ts';
import { DEFAULT_VARIANTS, VARIANTS, pickVariants, serviceEnv, type Variant } from './variants.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    'first-round': { type: 'string', default: '1' },
    seconds: { type: 'string' },
    slices: { type: 'string' },
    warmup: { type: 'string' },
    'turn-warmup': { type: 'string' },
    connections: { type: 'string', default: '20' },
    rate: { type: 'string' },
    variants: { type: 'string' },
    all: { type: 'boolean', default: false },
    'node-args': { type: 'string', multiple: true },
    'cpu-prof': { type: 'boolean', default: false },
    compare: { type: 'string' },
    pairs: { type: 'string' },
    label: { type: 'string', default: '' },
    stdout: { type: 'string', default: 'file' },
    out: { type: 'string', default: 'bench-results/latest.json' },
  },
});

function positiveOrUndefined(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} takes a number of chats per second above 0, not ${value}`);
  return n;
}

function stdoutKind(value: string | undefined): 'file' | 'pipe' {
  if (value === 'file' || value === 'pipe') return value;
  throw new Error(`--stdout takes file or pipe, not ${value}`);
}

/**
 * How `npm start` runs the service in a checkout: its Node flags (e.g. `--max-semi-space-size=32`)
 * and its entry file (`dist/src/server.js`, or `src/server.ts` in a checkout from before the build
 * step), after its `prestart` (the build) has run: measured as it runs.
 */
function startCommand(dir: string): { flags: string[]; entry: string } {
  const scripts = (JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const prestart = scripts['prestart'];
  if (prestart !== undefined) execFileSync('sh', ['-c', prestart], { cwd: dir, stdio: 'inherit', env: { ...process.env, PATH: `${resolve(dir, 'node_modules/.bin')}:${process.env['PATH'] ?? ''}` } });
  const match = /\bnode((?:\s+--\S+)*)\s+(\S+)/.exec(scripts['start'] ?? '');
  return { flags: (match?.[1] ?? '').split(' ').filter((a) => a !== ''), entry: match?.[2] ?? 'src/server.ts' };
}

const settings = {
  rounds: Number(args.rounds ?? (args.quick ? 2 : 3)),
  /**
   * The number of the first round (a run of one round at a time, its order going on from the last
   * run's: scripts/bench/merge.ts puts the runs together).
   */
  firstRound: Number(args['first-round']),
  /** Measured seconds per target and round, in `slices` turns of seconds/slices each. */
  seconds: Number(args.seconds ?? (args.quick ? 4 : 8)),
  slices: Number(args.slices ?? (args.quick ? 2 : 4)),
  /**
   * Load before the measured turns, long enough for V8's optimizing compilers to settle: with 3 s a
   * fresh service was still compiling (on V8's worker threads) for about 50..100 µs per chat of
   * what was then measured, a one-time cost of a new process that the baseline, with a few dozen
   * lines of code, barely pays. From about 15 s on the figures no longer move.
   */
  warmupSeconds: Number(args.warmup ?? (args.quick ? 5 : 15)),
  /** Unmeasured load right before each measured turn (see measureRound). */
  turnWarmupSeconds: Number(args['turn-warmup'] ?? (args.quick ? 1 : 2)),
  connections: Number(args.connections),
  /**
   * Chats per second for every target's measured turns (and the unmeasured load just before each),
   * the same for all: CPU per chat compared at one load instead of at each target's own maximum.
   * Unset: as fast as each target answers. The first warm-up always runs as fast as it can.
   */
  rate: positiveOrUndefined(args.rate, '--rate'),
  /**
   * Node flags for the service processes only (the baseline runs with Node's defaults); by default
   * those of each checkout's `npm start`. Given more than once, each set is a target of its own
   * (suffix #1, #2, ...), to compare flags in one run (`--node-args=` is none).
   */
  serviceNodeArgs: args['node-args']?.map((set) => set.split(' ').filter((a) => a !== '')),
  /**
   * What the services' stdout (their log lines) is: a `file`, or a `pipe` that this process reads
   * into that file, as a container runtime's log collector does. The service writes each differently
   * (src/telemetry/log-destination.ts).
   */
  stdout: stdoutKind(args.stdout),
};
/** `--pairs a:b,c:d`: targets compared with each other round by round (names as the rows print them). */
const pairs = (args.pairs?.split(',') ?? []).map((pair) => {
  const [a, b, ...rest] = pair.split(':');
  if (a === undefined || b === undefined || a === '' || b === '' || rest.length > 0) throw new Error(`--pairs takes a:b[,c:d...] (target names), not ${pair}`);
  return [a, b] as const;
});
const variants: Variant[] = args.all ? [...VARIANTS] : pickVariants(args.variants?.split(',') ?? DEFAULT_VARIANTS);
const resultsDir = resolve(ROOT, 'bench-results');
mkdirSync(resultsDir, { recursive: true });
const profileDir = resolve(resultsDir, 'profiles');

interface Target {
  readonly name: string;
  readonly variant?: Variant;
  start(): Promise<Started>;
}

interface Tally {
  proc: Started;
  /** Why the process stopped answering mid-round (it exited, or was killed by something else). */
  died?: string;
  idleRssMiB: number;
  cpuUs: number;
  offMainUs: number;
  ok: number;
  failed: number;
  seconds: number;
  p50s: number[];
  p99s: number[];
  firstTextMs: number;
  /** What redis-server did during this target's measured turns (a variant with needsRedis). */
  redis: RedisSample;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Every target started fresh, each with an empty tally (pushed as it starts, so a failure stops those started). */
async function startTargets(targets: readonly Target[], tallies: Tally[]): Promise<void> {
  for (const target of targets) {
    // One more try for a start that failed (a busy machine, a port taken meanwhile); then it is an error.
    const proc = await target.start().catch((err: unknown) => {
      console.log(`warning: ${(err as Error).message}; trying once more`);
      return target.start();
    });
    tallies.push({ proc, idleRssMiB: 0, cpuUs: 0, offMainUs: 0, ok: 0, failed: 0, seconds: 0, p50s: [], p99s: [], firstTextMs: Number.NaN, redis: NO_REDIS_WORK });
  }
}

/** A target's figures for the round, from its totals over its slices. */
function rowOf(round: number, target: string, t: Tally, running: boolean, redisStats: RedisProbe | undefined): Row {
  return {
    round,
    target,
    rps: t.ok / t.seconds,
    p50Ms: mean(t.p50s),
    p99Ms: mean(t.p99s),
    cpuUsPerChat: t.cpuUs / Math.max(1, t.ok),
    offMainUsPerChat: t.offMainUs / Math.max(1, t.ok),
    idleRssMiB: t.idleRssMiB,
    peakRssMiB: running ? memory(t.proc.pid).peakMiB : Number.NaN,
    firstTextMs: t.firstTextMs,
    ok: t.ok,
    failed: t.failed,
    ...(redisStats !== undefined && { redis: perChat(t.redis, t.ok) }),
    ...(t.died !== undefined && { died: t.died }),
  };
}

/**
 * One round: every target started fresh and left idle (its idle memory read), warmed up, then
 * loaded in turn in short slices (A B C, B C A, C A B, ...), so that whatever else the machine does
 * during the round, and the place in the order, fall on all of them alike. Each target's figures are its totals over its slices.
 */
async function measureRound(round: number, targets: readonly Target[], redisStats: RedisProbe | undefined): Promise<Row[]> {
  const tallies: Tally[] = [];
  try {
    await startTargets(targets, tallies);
    await sleep(1_000); // settled after start-up: what each holds before its first request
    for (const t of tallies) t.idleRssMiB = memory(t.proc.pid).rssMiB;
    const loadOf = (i: number) => ({
      url: tallies[i]!.proc.url,
      connections: settings.connections,
      ...(targets[i]!.variant?.headers !== undefined && { headers: targets[i]!.variant!.headers! }),
      ...(targets[i]!.variant?.idempotencyKeys === true && { idempotencyKeys: true }),
      ...(targets[i]!.variant?.messages !== undefined && { messages: targets[i]!.variant!.messages! }),
    });
    // /proc has no entry for a process that is gone (its exit event may come a moment later).
    const cpuOf = (t: Tally): ThreadCpu => {
      try {
        return threadCpuMicros(t.proc.pid);
      } catch {
        return { all: Number.NaN, offMain: Number.NaN };
      }
    };
    // A target that dies is reported as such; the others go on.
    const alive = (t: Tally): boolean => {
      const exit = t.proc.exit();
      if (exit !== undefined && t.died === undefined) {
        t.died = exit;
        console.log(`warning: ${t.proc.name} stopped in round ${round} (${exit}); it is left out of this round`);
      }
      return t.died === undefined;
    };
    // Where this round's order starts: the rotation goes on from the last round's (see below).
    const offset = ((round - 1) * settings.slices) % tallies.length;
    for (let k = 0; k < tallies.length; k++) {
      const i = (k + offset) % tallies.length;
      if (alive(tallies[i]!)) await load({ ...loadOf(i), seconds: settings.warmupSeconds });
    }
    const atRate = settings.rate === undefined ? {} : { rate: settings.rate };
    for (let slice = 0; slice < settings.slices; slice++) {
      // The order turns with each slice (A B C, B C A, C A B, ...): a target loaded right after the
      // baseline was measured about 10 % dearer than the same code later in the slice (the stubs and
      // the machine are still busy with the baseline's faster pace), so no target keeps that place.
      // The turning goes on across rounds instead of starting again: with more targets than slices
      // (a --compare run) every round began the same way, and the first two targets after the
      // baseline, this checkout's, followed it in three slices of four: 10..25 % dearer than the same
      // code of the other checkout, measured in the same run.
      for (let k = 0; k < tallies.length; k++) {
        const i = (k + slice + offset) % tallies.length;
        const t = tallies[i]!;
        if (!alive(t)) continue;
        // Woken up first: between its turns a target idles while the others run (a minute and more
        // after the first warm-up with every variant), and an idle V8 gives back code and memory.
        if (settings.turnWarmupSeconds > 0) await load({ ...loadOf(i), ...atRate, seconds: settings.turnWarmupSeconds });
        if (!alive(t)) continue;
        const probe = targets[i]!.variant?.needsRedis === true ? redisStats : undefined;
        const redisBefore = await probe?.sample();
        const cpuBefore = cpuOf(t);
        const r = await load({ ...loadOf(i), ...atRate, seconds: settings.seconds / settings.slices });
        const cpuAfter = cpuOf(t);
        const redisAfter = await probe?.sample();
        if (!alive(t) || Number.isNaN(cpuBefore.all + cpuAfter.all)) continue;
        if (redisBefore !== undefined && redisAfter !== undefined) t.redis = add(t.redis, difference(redisBefore, redisAfter));
        t.cpuUs += cpuAfter.all - cpuBefore.all;
        t.offMainUs += cpuAfter.offMain - cpuBefore.offMain;
        t.ok += r.ok;
        t.failed += r.failed;
        t.seconds += r.seconds;
        t.p50s.push(r.p50Ms);
        t.p99s.push(r.p99Ms);
      }
    }
    // After the load: one chat at a time, so the figure is the service's own, not the queue's.
    for (let i = 0; i < tallies.length; i++) {
      if (alive(tallies[i]!)) tallies[i]!.firstTextMs = await timeToFirstText(tallies[i]!.proc.url, targets[i]!.variant?.headers);
    }
    return tallies.map((t, i) => rowOf(round, targets[i]!.name, t, alive(t), targets[i]!.variant?.needsRedis === true ? redisStats : undefined));
  } finally {
    await Promise.all(tallies.map((t) => t.proc.stop()));
  }
}

/** redis-server's figures per successful chat; calls per command name, rounded to 0.01. */
function perChat(sample: RedisSample, ok: number): NonNullable<Row['redis']> {
  const n = Math.max(1, ok);
  return {
    cpuUsPerChat: Number((sample.cpuUs / n).toFixed(2)),
    commandsPerChat: Number((sample.commands / n).toFixed(2)),
    readsPerChat: Number((sample.reads / n).toFixed(2)),
    callsPerChat: Object.fromEntries([...sample.calls].sort(([a], [b]) => a.localeCompare(b)).map(([name, calls]) => [name, Number((calls / n).toFixed(2))] as const).filter(([, calls]) => calls > 0)),
  };
}

function gitDescription(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'steps', 'schemas'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit}+changes` : commit;
  } catch {
    return 'unknown';
  }
}

const startedAt = new Date();
const loadBefore = loadavg();
const stubs = await startNode({ name: 'stubs', script: resolve(ROOT, 'scripts/bench/stubs.ts'), cwd: ROOT, env: {} });
const redis = variants.some((v) => v.needsRedis === true) ? await startRedis() : undefined;
const redisCluster = variants.some((v) => v.needsRedisCluster === true) ? await startRedisCluster() : undefined;
const redisStats = redis === undefined ? undefined : await redisProbe(redis.port, redis.pid);
const rows: Row[] = [];
console.log(
  `${settings.rounds} rounds; per target and round ${settings.warmupSeconds}s warm-up + ${settings.seconds}s measured in ${settings.slices} turns ` +
    `(each after ${settings.turnWarmupSeconds}s unmeasured), ${settings.connections} connections` +
    `${settings.rate === undefined ? '' : `, ${settings.rate} chats/s each`}; ` +
    `variants: ${variants.map((v) => v.name).join(', ')}`,
);
/** This checkout's service, and (--compare) the same variants of other checkouts, e.g. the code before a change. */
const checkoutDirs = [{ dir: ROOT, suffix: '' }, ...(args.compare?.split(',') ?? []).map((dir) => ({ dir: resolve(dir), suffix: `@${basename(dir)}` }))];
const checkouts = checkoutDirs.flatMap(({ dir, suffix }) => {
  const { flags, entry } = startCommand(dir);
  const sets = settings.serviceNodeArgs ?? [flags];
  return sets.map((nodeArgs, i) => ({ dir, entry, nodeArgs, suffix: sets.length > 1 ? `${suffix}#${i + 1}` : suffix }));
});
for (const { dir, entry, nodeArgs, suffix } of checkouts) console.log(`service${suffix}: ${dir}, node ${[...nodeArgs, entry].join(' ')}`);
console.log(ROW_HEADER);
const targets: Target[] = [
  { name: 'baseline', start: () => startNode({ name: 'baseline', script: resolve(ROOT, 'scripts/bench/baseline.ts'), cwd: ROOT, env: { STUB_URL: stubs.url } }) },
  ...checkouts.flatMap(({ dir, entry, nodeArgs, suffix }) => variants.map((variant) => ({
    name: `${variant.name}${suffix}`,
    variant,
    start: () =>
      startNode({
        name: `service (${variant.name}${suffix})`,
        script: resolve(dir, entry),
        cwd: dir,
        env: { ...serviceEnv(stubs.url), ...variant.env({ stubUrl: stubs.url, ...(redis !== undefined && { redisUrl: redis.url }), ...(redisCluster !== undefined && { clusterNodes: redisCluster.nodes }) }) },
        nodeArgs: [...nodeArgs, ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
        stdoutFile: resolve(resultsDir, `service-${variant.name}${suffix}.log`),
        stdoutThroughPipe: settings.stdout === 'pipe',
      }),
  }))),
];
for (const name of pairs.flat()) {
  if (!targets.some((t) => t.name === name)) throw new Error(`--pairs names ${name}, which is not a target of this run: ${targets.map((t) => t.name).join(', ')}`);
}
try {
  for (let round = settings.firstRound; round < settings.firstRound + settings.rounds; round++) {
    for (const row of await measureRound(round, targets, redisStats)) {
      rows.push(row);
      console.log(formatRow(row));
    }
    writeResults(resolve(ROOT, args.out), false); // what is measured so far survives a later failure
  }
} finally {
  redisStats?.close();
  await Promise.all([stubs.stop(), redis?.stop(), redisCluster?.stop()]);
}

/** The figures as JSON: every row, the summary over the rounds measured so far, how they were measured. */
function writeResults(path: string, announce: boolean): void {
  const results = {
    label: args.label,
    date: startedAt.toISOString(),
    commit: gitDescription(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, loadavgBefore: loadBefore.map((l) => Number(l.toFixed(2))) },
    settings,
    services: checkouts.map(({ dir, nodeArgs, suffix }) => ({ suffix, dir: dir === ROOT ? '.' : dir, nodeArgs })),
    variants: Object.fromEntries(variants.map((v) => [v.name, v.description])),
    summary: summarize(rows, targets.map((t) => t.name)),
    ...(pairs.length > 0 && { pairs: comparePairs(rows, pairs) }),
    rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toFixed(2)) : v]))),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  if (announce) console.log(`figures written to ${path}`);
}

const summary = summarize(rows, targets.map((t) => t.name));
console.log(`\nmedians over ${settings.rounds} rounds; ratios = service / baseline of the same round (median)\n${formatSummary(summary)}`);
if (pairs.length > 0) console.log(`\npairs, CPU per chat of the same round (median over rounds):\n${formatPairs(comparePairs(rows, pairs))}`);
const failed = rows.reduce((n, r) => n + r.failed, 0);
if (failed > 0) console.log(`\nwarning: ${failed} requests failed (non-2xx, errors or timeouts); see bench-results/service-<variant>.log`);
// At a set rate the figures compare one load only while every target keeps up with it.
const behind = settings.rate === undefined ? [] : rows.filter((r) => r.rps < settings.rate! * 0.95);
if (behind.length > 0) console.log(`warning: below the ${settings.rate} chats/s asked for: ${behind.map((r) => `${r.target} (round ${r.round}: ${Math.round(r.rps)}/s)`).join(', ')}`);
const died = rows.filter((r) => r.died !== undefined);
if (died.length > 0) console.log(`warning: ${died.map((r) => `${r.target} (round ${r.round}: ${r.died})`).join(', ')} stopped before the end of a round`);
writeResults(resolve(ROOT, args.out), true);
