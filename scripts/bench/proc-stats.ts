/**
 * What a process has spent, read from /proc (Linux): CPU time (user + system) and resident memory.
 * Read from outside the process, so the figures do not depend on the process's cooperation and
 * are not moved by the load generator that shares the cores.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** Clock ticks per second of utime/stime (`getconf CLK_TCK`, 100 on Linux almost everywhere). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** CPU time (user + system) in a /proc `stat` file, in microseconds. */
function statMicros(path: string): number {
  const stat = readFileSync(path, 'utf8');
  // Fields after the command name (which may hold spaces), counted from field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / clockTicks();
}

/** CPU time (user + system) the process has used so far, all its threads, in microseconds. */
function cpuMicros(pid: number): number {
  return statMicros(`/proc/${pid}/stat`);
}

export interface ThreadCpu {
  /** All threads, microseconds. */
  readonly all: number;
  /**
   * The part not spent on the main (JavaScript) thread: V8's worker threads (garbage collection
   * helpers, concurrent marking, the optimizing compilers) and libuv's pool. A CPU profile does
   * not show it.
   */
  readonly offMain: number;
}

/** CPU time of the whole process and of its main thread, read once each. */
export function threadCpuMicros(pid: number): ThreadCpu {
  const all = cpuMicros(pid);
  return { all, offMain: all - statMicros(`/proc/${pid}/task/${pid}/stat`) };
}

export interface Memory {
  /** Resident set now (VmRSS), MiB. */
  readonly rssMiB: number;
  /** Highest resident set so far (VmHWM), MiB. */
  readonly peakMiB: number;
}

export function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}
