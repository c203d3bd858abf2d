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

/** Wraps each step run, e.g. in a span; must call `run` exactly once and return its result. */
export type StepInstrument = <T>(name: string, run: () => Promise<T>) => Promise<T>;

export interface Pipeline {
  /**
   * Runs every step in order over `ctx`, merging each patch into it. Timings are pushed into
   * `timings` as steps finish, so a caller still has them when a step throws.
   */
  run(ctx: ChatContext, deps: Deps, timings: StepTiming[], instrument?: StepInstrument): Promise<ChatContext>;
}

const passThrough: StepInstrument = (_name, run) => run();

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
    async run(ctx, deps, timings, instrument = passThrough) {
      for (const step of steps) {
        const started = performance.now();
        let ok = false;
        try {
          const patch = await instrument(step.name, async () => step(ctx, deps));
          if (patch) Object.assign(ctx, patch);
          ok = true;
        } catch (err) {
          throw isExpected(err) ? err : new StepError(step.name, err);
        } finally {
          timings.push({ name: step.name, ms: performance.now() - started, ok });
        }
      }
      return ctx;
    },
  };
}
