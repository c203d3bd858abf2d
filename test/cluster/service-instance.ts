/**
 * One service instance of a cluster run: a real `node dist/src/server.js` process (as `npm start` runs
 * it) on its own port and DATA_DIR, its log lines, its readiness and the CPU time it used.
 */
import { readFileSync } from 'node:fs';
import { freePort } from '../helpers/redis-server.ts';
import { spawnService, type ServiceProcess } from '../helpers/service-process.ts';

export interface Instance {
  readonly slot: number;
  readonly url: string;
  readonly dataDir: string;
  readonly process: ServiceProcess;
  /** The process's CPU time so far (user + system), ms; undefined where /proc is not there. */
  cpuMs(): number | undefined;
  /** Its resident memory now, MiB; undefined where /proc is not there. */
  rssMiB(): number | undefined;
  /** Sends `signal` and waits for the exit; resolves with the exit code (null after a signal). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    // Fields 14 and 15 (utime, stime) follow the parenthesised command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return undefined;
  }
}

function rssMiBOf(pid: number | undefined): number | undefined {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** Starts the process and waits until it listens. */
export async function startInstance(slot: number, dataDir: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const service = spawnService({ ...env, PORT: String(port), DATA_DIR: dataDir });
  const url = `http://127.0.0.1:${port}`;
  await service.untilOutput('chat adapter listening', 60_000).catch((err: unknown) => {
    service.child.kill('SIGKILL');
    throw err;
  });
  return {
    slot,
    url,
    dataDir,
    process: service,
    cpuMs: () => cpuMsOf(service.child.pid),
    rssMiB: () => rssMiBOf(service.child.pid),
    async stop(signal) {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill(signal);
      return service.exited;
    },
  };
}

/** The JSON log lines of `instance` whose msg is `msg`. */
export function logLines(instance: Instance, msg: string): Array<Record<string, unknown>> {
  return instance.process
    .stdout()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** GET /ready's status, or `refused` when the instance takes no connection. */
export async function readyStatus(url: string): Promise<number | 'refused'> {
  try {
    return (await fetch(`${url}/ready`, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 'refused';
  }
}
