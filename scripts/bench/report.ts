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

export const ROW_HEADER = `${'round'.padEnd(6)}${'target'.padEnd(NAME)}${pad('req/s', 7)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('CPU µs/chat', 12)}${pad('off main', 9)}${pad('idle MiB', 9)}${pad('peak MiB', 9)}${pad('1st text', 9)}${pad('failed', 7)}`;

export function formatRow(r: Row): string {
  if (r.died !== undefined) return `${String(r.round).padEnd(6)}${r.target.padEnd(NAME)}  stopped mid-round (${r.died}): left out`;
  return (
    `${String(r.round).padEnd(6)}${r.target.padEnd(NAME)}${pad(r.rps.toFixed(0), 7)}${pad(r.p50Ms.toFixed(1), 8)}${pad(r.p99Ms.toFixed(1), 8)}` +
    `${pad(r.cpuUsPerChat.toFixed(0), 12)}${pad(r.offMainUsPerChat.toFixed(0), 9)}${pad(r.idleRssMiB.toFixed(0), 9)}${pad(r.peakRssMiB.toFixed(0), 9)}${pad(r.firstTextMs.toFixed(1), 9)}${pad(r.failed, 7)}`
  );
}

export function formatSummary(summaries: readonly Summary[]): string {
  const lines = [
    `${'target'.padEnd(NAME)}${pad('req/s', 7)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('CPU µs/chat', 12)}${pad('off main', 9)}${pad('idle MiB', 9)}${pad('peak MiB', 9)}${pad('1st text', 9)}` +
      `${pad('CPU x', 7)}${pad('req/s x', 8)}${pad('p99 x', 7)}`,
  ];
  for (const s of summaries) {
    const ratio = (value: number | undefined) => pad(value === undefined ? '-' : value.toFixed(2), 7);
    lines.push(
      `${s.target.padEnd(NAME)}${pad(s.rps, 7)}${pad(s.p50Ms.toFixed(1), 8)}${pad(s.p99Ms.toFixed(1), 8)}${pad(s.cpuUsPerChat, 12)}${pad(s.offMainUsPerChat, 9)}` +
        `${pad(s.idleRssMiB.toFixed(0), 9)}${pad(s.peakRssMiB.toFixed(0), 9)}${pad(s.firstTextMs.toFixed(1), 9)}${ratio(s.ratios?.cpu)}${pad(s.ratios?.rps.toFixed(2) ?? '-', 8)}${ratio(s.ratios?.p99)}`,
    );
  }
  return lines.join('\n');
}
