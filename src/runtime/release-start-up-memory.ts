/**
 * Loading the service's modules and compiling its validators leaves V8's heap grown to its
 * start-up peak (a young generation at its maximum size, old-space pages of garbage) and V8 keeps
 * that memory resident while the process idles: about 30 MiB more than the live objects need.
 * One memory-reducing collection once the service listens hands it back before the first chat.
 *
 * V8 runs such a collection ("last resort": it shrinks the young generation and releases free
 * pages) only through its `gc()` extension, so the extension is switched on for a moment and the
 * function taken from a fresh context: no `gc` is left on the service's global object.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Runs one memory-reducing major collection; answers how long it took (ms). */
export function releaseStartUpMemory(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as GcFunction;
  setFlagsFromString('--no-expose-gc');
  const started = performance.now();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return performance.now() - started;
}
