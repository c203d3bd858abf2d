/**
 * Loading the service's modules and compiling its validators leaves V8's heap grown to its
 * start-up peak (a young generation at its maximum size, old-space pages of garbage), and V8 keeps
 * that memory resident while the process idles: about 30 MiB more than the live objects need.
 * One memory-reducing collection after start-up, before the first connection, hands it back.
 *
 * V8 runs such a collection ("last resort": it shrinks the young generation and releases free
 * pages) only through its `gc()` extension. `npm start` and the image expose it under a name of
 * its own (`--expose-gc-as=`, below), not as a global `gc` a dependency might find and call.
 * Switching the extension on at run time instead (`v8.setFlagsFromString('--expose-gc')`) was
 * measured to make every later chat cost about 60 % more CPU: V8 flags are not changed at run time.
 * Started without the flag (tests, a bare `node dist/src/server.js`), nothing is done.
 */

/** `node --expose-gc-as=<this>`: set by `npm start` and the Dockerfile's CMD. */
export const START_UP_GC_NAME = 'chatAdapterStartUpGc';

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Runs the collection when the process was started with the flag; answers how long it took (ms). */
export function releaseStartUpMemory(): number | undefined {
  const gc = (globalThis as Record<string, unknown>)[START_UP_GC_NAME];
  if (typeof gc !== 'function') return undefined;
  const started = performance.now();
  (gc as GcFunction)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return performance.now() - started;
}
