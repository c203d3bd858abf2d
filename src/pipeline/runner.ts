import { performance } from 'node:perf_hooks';
import { DownstreamError, RequestValidationError, StepError } from '../errors.ts';
import type { ChatContext, ContextPatch } from './context.ts';
import type { Deps } from './ports.ts';

/** A processing rule: reads the context and its dependencies, returns what it adds. */
export type Step = (ctx: Readonly<ChatContext>, deps: Deps) => Promise<ContextPatch | void> | ContextPatch | void;

export interface StepTiming {
  readonly name: string;
  /** Milliseconds, from a monotonic clock. */
  readonly ms: number;
  readonly ok: boolean;
}

/** Runs one step's body inside a scope of its own (e.g. with the step's span active). */
export interface StepScope {
  run<T>(body: () => T): T;
}

/**
 * Watches the steps of one run, e.g. to record a span per step. It is told the very start and end
 * times (performance.now()) the step's timing reports. Most steps need nothing around their body;
 * for one that does (a step calling other parties, whose spans must be its children), `enter`
 * returns the scope the body runs in, and `leave` gets it back.
 */
export interface StepObserver {
  enter(name: string, startedAt: number): StepScope | undefined;
  /** `result` is the step's patch when `timing.ok`, else what it threw. */
  leave(timing: StepTiming, startedAt: number, endedAt: number, scope: StepScope | undefined, result: unknown): void;
}

export interface Pipeline {
  /**
   * Runs every step in order over `ctx`, merging each patch into it. Timings are pushed into
   * `timings` as steps finish, so a caller still has them when a step throws.
   */
  run(ctx: ChatContext, deps: Deps, timings: StepTiming[], observer?: StepObserver): Promise<ChatContext>;
}

/** Expected failures keep their type (they map to 4xx/503); anything else is wrapped with the step's name. */
function isExpected(err: unknown): boolean {
  return err instanceof RequestValidationError || err instanceof DownstreamError;
}

export function createPipeline(steps: readonly Step[]): Pipeline {
  // Checked once, when the pipeline is built, never per request.
  if (steps.length === 0) throw new TypeError('a pipeline needs at least one step');
  const names = steps.map((step, i) => {
    if (typeof step !== 'function') throw new TypeError(`step ${i} is not a function`);
    if (step.name === '') throw new TypeError(`step ${i} has no name: use a named function`);
    return step.name;
  });
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw new TypeError(`step '${duplicate}' appears twice`);

  return {
    async run(ctx, deps, timings, observer) {
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        const name = names[i]!;
        const startedAt = performance.now();
        const scope = observer?.enter(name, startedAt);
        let result: unknown = undefined;
        let ok = false;
        try {
          const out = scope === undefined ? step(ctx, deps) : scope.run(() => step(ctx, deps));
          // A synchronous step is not awaited: most steps are pure and need no trip through the microtask queue.
          const patch = out instanceof Promise ? await out : out;
          if (patch) Object.assign(ctx, patch);
          result = patch;
          ok = true;
        } catch (err) {
          result = err;
          throw isExpected(err) ? err : new StepError(name, err);
        } finally {
          const endedAt = performance.now();
          const timing: StepTiming = { name, ms: endedAt - startedAt, ok };
          timings.push(timing);
          observer?.leave(timing, startedAt, endedAt, scope, result);
        }
      }
      return ctx;
    },
  };
}
