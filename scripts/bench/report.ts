/** The benchmark's figures: one row per measured run, the per-variant summary, and how both are printed. */

/** What is measured of one target: per round (Row), or as the median over the rounds (Summary). */
interface Figures {
  readonly target: string;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU (user + system) of the target process per successful chat, over the measured run. */
  readonly cpuUsPerChat: number;
  /** The part of cpuUsPerChat spent off the main thread (V8's GC helpers and compilers, libuv's pool). */
  readonly offMainUsPerChat: number;
  /** Resident memory after start-up, before any request. */
  readonly idleRssMiB: number;
  /** Highest resident memory up to the end of the measured run (VmHWM). */
  readonly peakRssMiB: number;
  /** Median time to the first reply text of sequential chats (first-text.ts): a stream's first text, a JSON answer's end. */
  readonly firstTextMs: number;
  /** redis-server's work per chat during the measured turns (variants with Redis: redis-stats.ts). */
  readonly redis?: RedisPerChat;
}

export interface RedisPerChat {
  /** redis-server's own CPU (it comes on top of the service's). */
  readonly cpuUsPerChat: number;
  /** Commands Redis ran (`total_commands_processed`: a script's own calls counted too, so EVALSHA + 5 for a lease script). */
  readonly commandsPerChat: number;
  /** Read events: batches of commands that arrived together, the nearest to round trips Redis counts. */
  readonly readsPerChat: number;
  /** Calls per command name, the commands scripts run included (JSON only). */
  readonly callsPerChat?: Readonly<Record<string, number>>;
}

export interface Row extends Figures {
  readonly round: number;
  /** `baseline`, or the service variant's name. */
  readonly target: string;
  readonly ok: number;
  readonly failed: number;
  /** Set when the process stopped mid-round (`signal SIGKILL`, `exit code 1`): its figures are left out. */
  readonly died?: string;
}

export interface Summary extends Figures {
  /** Service / baseline, the median of the per-round ratios (absent for the baseline itself). */
  readonly ratios?: { readonly cpu: number; readonly rps: number; readonly p99: number };
}

/** The median of the values measured (a target that died leaves NaN, not counted). */
const median = (values: readonly number[]): number => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const round = (value: number, digits: number) => Number(value.toFixed(digits));

export function summarize(rows: readonly Row[], targets: readonly string[]): Summary[] {
  const measured = rows.filter((r) => r.died === undefined);
  const baseline = new Map(measured.filter((r) => r.target === 'baseline').map((r) => [r.round, r]));
  return targets.map((target) => {
    const mine = measured.filter((r) => r.target === target);
    const pick = (key: keyof Row) => median(mine.map((r) => r[key] as number));
    const withRedis = mine.flatMap((r) => (r.redis === undefined ? [] : [r.redis]));
    const summary: Summary = {
      target,
      rps: round(pick('rps'), 0),
      p50Ms: round(pick('p50Ms'), 2),
      p99Ms: round(pick('p99Ms'), 2),
      cpuUsPerChat: round(pick('cpuUsPerChat'), 0),
      offMainUsPerChat: round(pick('offMainUsPerChat'), 0),
      idleRssMiB: round(pick('idleRssMiB'), 1),
      peakRssMiB: round(pick('peakRssMiB'), 1),
      firstTextMs: round(pick('firstTextMs'), 1),
      ...(withRedis.length > 0 && {
        redis: {
          cpuUsPerChat: round(median(withRedis.map((r) => r.cpuUsPerChat)), 1),
          commandsPerChat: round(median(withRedis.map((r) => r.commandsPerChat)), 2),
          readsPerChat: round(median(withRedis.map((r) => r.readsPerChat)), 2),
        },
      }),
    };
    if (target === 'baseline') return summary;
    const paired = mine.filter((r) => baseline.has(r.round)).map((r) => ({ r, b: baseline.get(r.round)! }));
    if (paired.length === 0) return summary;
    return {
      ...summary,
      ratios: {
        cpu: round(median(paired.map(({ r, b }) => r.cpuUsPerChat / b.cpuUsPerChat)), 2),
        rps: round(median(paired.map(({ r, b }) => r.rps / b.rps)), 2),
        p99: round(median(paired.map(({ r, b }) => r.p99Ms / b.p99Ms)), 2),
      },
    };
  });
}

const pad = (text: string | number, width: number) => String(text).padStart(width);
/** Width of the target column (variant names, `@checkout` suffixes). */
const NAME = 22;

/** redis-server's columns: its CPU µs, commands (scripts' own calls included) and read events per chat (blank without Redis). */
const REDIS_HEADER = `${pad('Redis µs', 10)}${pad('cmds', 6)}${pad('reads', 6)}`;
const redisColumns = (r: RedisPerChat | undefined): string =>
  r === undefined ? '' : `${pad(r.cpuUsPerChat.toFixed(0), 10)}${pad(r.commandsPerChat.toFixed(2), 6)}${pad(r.readsPerChat.toFixed(2), 6)}`;

export const ROW_HEADER = `${'round'.padEnd(6)}${'target'.padEnd(NAME)}${pad('req/s', 7)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('CPU µs/chat', 12)}${pad('off main', 9)}${pad('idle MiB', 9)}${pad('peak MiB', 9)}${pad('1st text', 9)}${pad('failed', 7)}${REDIS_HEADER}`;

export function formatRow(r: Row): string {
  if (r.died !== undefined) return `${String(r.round).padEnd(6)}${r.target.padEnd(NAME)}  stopped mid-round (${r.died}): left out`;
  return (
    `${String(r.round).padEnd(6)}${r.target.padEnd(NAME)}${pad(r.rps.toFixed(0), 7)}${pad(r.p50Ms.toFixed(1), 8)}${pad(r.p99Ms.toFixed(1), 8)}` +
    `${pad(r.cpuUsPerChat.toFixed(0), 12)}${pad(r.offMainUsPerChat.toFixed(0), 9)}${pad(r.idleRssMiB.toFixed(0), 9)}${pad(r.peakRssMiB.toFixed(0), 9)}${pad(r.firstTextMs.toFixed(1), 9)}${pad(r.failed, 7)}${redisColumns(r.redis)}`
  );
}

export function formatSummary(summaries: readonly Summary[]): string {
  const lines = [
    `${'target'.padEnd(NAME)}${pad('req/s', 7)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('CPU µs/chat', 12)}${pad('off main', 9)}${pad('idle MiB', 9)}${pad('peak MiB', 9)}${pad('1st text', 9)}` +
      `${pad('CPU x', 7)}${pad('req/s x', 8)}${pad('p99 x', 7)}${REDIS_HEADER}`,
  ];
  for (const s of summaries) {
    const ratio = (value: number | undefined) => pad(value === undefined ? '-' : value.toFixed(2), 7);
    lines.push(
      `${s.target.padEnd(NAME)}${pad(s.rps, 7)}${pad(s.p50Ms.toFixed(1), 8)}${pad(s.p99Ms.toFixed(1), 8)}${pad(s.cpuUsPerChat, 12)}${pad(s.offMainUsPerChat, 9)}` +
        `${pad(s.idleRssMiB.toFixed(0), 9)}${pad(s.peakRssMiB.toFixed(0), 9)}${pad(s.firstTextMs.toFixed(1), 9)}${ratio(s.ratios?.cpu)}${pad(s.ratios?.rps.toFixed(2) ?? '-', 8)}${ratio(s.ratios?.p99)}${redisColumns(s.redis)}`,
    );
  }
  return lines.join('\n');
}

/** Two targets measured in the same rounds: `a` against `b`, e.g. a feature on against off, or now against a checkout before. */
export interface PairFigures {
  readonly a: string;
  readonly b: string;
  /** a / b of CPU µs per chat, each round's, in round order. */
  readonly cpuRatios: readonly number[];
  /** Their median: 1.03 = `a` costs 3 % more CPU per chat than `b`. */
  readonly cpuRatio: number;
  /** a - b of redis-server's commands and read events per chat, medians over the rounds (both with Redis). */
  readonly redisCommandsDelta?: number;
  readonly redisReadsDelta?: number;
  readonly redisCpuUsDelta?: number;
}

/** `--pairs a:b,...`: each pair's per-round ratio of CPU per chat (the same round: the same drift), and the median. */
export function comparePairs(rows: readonly Row[], pairs: readonly (readonly [string, string])[]): PairFigures[] {
  const measured = rows.filter((r) => r.died === undefined);
  return pairs.map(([a, b]) => {
    const byRound = (target: string) => new Map(measured.filter((r) => r.target === target).map((r) => [r.round, r]));
    const rowsA = byRound(a);
    const rowsB = byRound(b);
    const both = [...rowsA.keys()].filter((k) => rowsB.has(k)).sort((x, y) => x - y).map((k) => ({ ra: rowsA.get(k)!, rb: rowsB.get(k)! }));
    const cpuRatios = both.map(({ ra, rb }) => round(ra.cpuUsPerChat / rb.cpuUsPerChat, 3));
    const redisBoth = both.filter(({ ra, rb }) => ra.redis !== undefined && rb.redis !== undefined);
    const delta = (key: 'commandsPerChat' | 'readsPerChat' | 'cpuUsPerChat') => round(median(redisBoth.map(({ ra, rb }) => ra.redis![key] - rb.redis![key])), 2);
    return {
      a,
      b,
      cpuRatios,
      cpuRatio: round(median(cpuRatios), 3),
      ...(redisBoth.length > 0 && { redisCommandsDelta: delta('commandsPerChat'), redisReadsDelta: delta('readsPerChat'), redisCpuUsDelta: delta('cpuUsPerChat') }),
    };
  });
}

export function formatPairs(pairs: readonly PairFigures[]): string {
  return pairs
    .map((p) => {
      const pct = ((p.cpuRatio - 1) * 100).toFixed(1);
      const redis = p.redisCommandsDelta === undefined ? '' : `; Redis per chat: ${signed(p.redisCommandsDelta)} commands, ${signed(p.redisReadsDelta!)} reads, ${signed(p.redisCpuUsDelta!)} µs CPU`;
      return `${p.a} / ${p.b}: CPU per chat x${p.cpuRatio.toFixed(3)} (${Number(pct) >= 0 ? '+' : ''}${pct} %; rounds ${p.cpuRatios.map((r) => r.toFixed(3)).join(' ')})${redis}`;
    })
    .join('\n');
}

const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;
