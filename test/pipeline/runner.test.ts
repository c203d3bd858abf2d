/**
 * The step runner. Equivalent mutant (StrykerJS, `npm run test:mutation -- pipeline`), not killable:
 * - `if (patch) Object.assign(ctx, patch)` -> `if (true) ...`: assigning `undefined` copies nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DownstreamError, RequestValidationError, StepError } from '../../src/errors.ts';
import type { ChatContext } from '../../src/pipeline/context.ts';
import { createPipeline, type Step, type StepObserver, type StepTiming } from '../../src/pipeline/runner.ts';
import { fakeDeps } from '../steps/fake-deps.ts';
import { freshContext } from '../steps/step-context.ts';

const { deps } = fakeDeps();

describe('createPipeline: running', () => {
  it('runs the steps in order over one context and merges each patch into it', async () => {
    const seen: string[] = [];
    const first: Step = function first(ctx) {
      seen.push(`first saw ${String(ctx.message)}`);
      return { message: 'hello', requestId: 'r1' };
    };
    const second: Step = async function second(ctx) {
      seen.push(`second saw ${String(ctx.message)}`);
      return { requestId: `${ctx.requestId}-2` };
    };
    const third: Step = function third(ctx) {
      seen.push(`third saw ${String(ctx.requestId)}`);
    };
    const pipeline = createPipeline([first, second, third]);

    const ctx = freshContext();
    const timings: StepTiming[] = [];
    const out = await pipeline.run(ctx, deps, timings);

    expect(out).toBe(ctx);
    expect(seen).toEqual(['first saw undefined', 'second saw hello', 'third saw r1-2']);
    expect(ctx.message).toBe('hello');
    expect(ctx.requestId).toBe('r1-2');
    expect(timings.map((t) => [t.name, t.ok])).toEqual([
      ['first', true],
      ['second', true],
      ['third', true],
    ]);
  });

  it('times each step with a monotonic clock', async () => {
    const quick: Step = function quick() {};
    const slow: Step = async function slow() {
      await sleep(20);
    };
    const timings: StepTiming[] = [];
    await createPipeline([quick, slow]).run(freshContext(), deps, timings);
    const [q, s] = timings;
    expect(q?.ms).toBeGreaterThanOrEqual(0);
    expect(s?.name).toBe('slow');
    expect(s?.ms).toBeGreaterThanOrEqual(15);
    expect(s?.ms).toBeLessThan(2_000);
  });
});

describe('createPipeline: failures', () => {
  const before: Step = function before() {
    return { message: 'set before the failure' };
  };

  it('times a failing step, reports it by name and stops: an unexpected error becomes StepError with its cause', async () => {
    const original = new Error('boom');
    const explode: Step = async function explode() {
      await sleep(20);
      throw original;
    };
    let laterRan = false;
    const later: Step = function later() {
      laterRan = true;
    };
    const timings: StepTiming[] = [];
    const ctx = freshContext();
    const failure = await createPipeline([before, explode, later]).run(ctx, deps, timings).catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(StepError);
    expect((failure as StepError).step).toBe('explode');
    expect((failure as StepError).cause).toBe(original);
    expect(laterRan).toBe(false);
    expect(timings.map((t) => [t.name, t.ok])).toEqual([
      ['before', true],
      ['explode', false],
    ]);
    expect(timings[1]?.ms).toBeGreaterThanOrEqual(15);
    expect(ctx.message).toBe('set before the failure');
  });

  it('wraps a thrown non-Error value too, keeping it as the cause', async () => {
    const throwsString: Step = function throwsString() {
      throw 'plain string';
    };
    const failure = await createPipeline([throwsString]).run(freshContext(), deps, []).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StepError);
    expect((failure as StepError).cause).toBe('plain string');
  });

  it.each([
    ['RequestValidationError', new RequestValidationError('message', 'must not be empty')],
    ['DownstreamError', new DownstreamError('engine', 'timed out')],
  ])('lets an expected %s through unwrapped, still timed, and stops', async (_label, expected) => {
    const fails: Step = function fails() {
      throw expected;
    };
    let laterRan = false;
    const later: Step = function later() {
      laterRan = true;
    };
    const timings: StepTiming[] = [];
    const failure = await createPipeline([before, fails, later]).run(freshContext(), deps, timings).catch((err: unknown) => err);
    expect(failure).toBe(expected);
    expect(laterRan).toBe(false);
    expect(timings.map((t) => [t.name, t.ok])).toEqual([
      ['before', true],
      ['fails', false],
    ]);
  });
});

describe('createPipeline: build-time checks', () => {
  const named: Step = function named() {};

  it('rejects an empty step list', () => {
    expect(() => createPipeline([])).toThrow(new TypeError('a pipeline needs at least one step'));
  });

  it('rejects an anonymous step (its name is what timings and spans report)', () => {
    const steps: Step[] = [named, () => {}];
    expect(steps[1]?.name).toBe('');
    expect(() => createPipeline(steps)).toThrow(/name/);
  });

  it('rejects a value that is not a function', () => {
    expect(() => createPipeline([named, 42 as unknown as Step])).toThrow(new TypeError('step 1 is not a function'));
  });

  it('rejects two steps with the same name, naming it', () => {
    const again: Step = function named() {};
    expect(() => createPipeline([named, again])).toThrow(/named/);
  });
});

describe('createPipeline: step observer', () => {
  /** Records what the observer is told; steps named `scoped*` get a scope that logs around their body. */
  function recorder() {
    const events: string[] = [];
    const ends: { name: string; ok: boolean; ms: number; span: number; result: unknown }[] = [];
    const observer: StepObserver = {
      enter(name) {
        events.push(`enter ${name}`);
        if (!name.startsWith('scoped')) return undefined;
        return {
          run<T>(body: () => T): T {
            events.push(`scope in ${name}`);
            const out = body();
            events.push(`scope out ${name}`);
            return out;
          },
        };
      },
      leave(timing, startedAt, endedAt, scope, result) {
        events.push(`leave ${timing.name}${scope === undefined ? '' : ' (scoped)'}`);
        ends.push({ name: timing.name, ok: timing.ok, ms: timing.ms, span: endedAt - startedAt, result });
      },
    };
    return { observer, events, ends };
  }

  it('is told of each step as it starts and ends, runs only the scoped ones in their scope, and sees each patch', async () => {
    const { observer, events, ends } = recorder();
    const alpha: Step = function alpha() {
      events.push('alpha body');
      return { message: 'from alpha' };
    };
    const scopedBeta: Step = async function scopedBeta() {
      events.push('beta body');
      await sleep(5);
      return { requestId: 'from beta' };
    };
    const ctx: ChatContext = freshContext();
    await createPipeline([alpha, scopedBeta]).run(ctx, deps, [], observer);
    expect(events).toEqual([
      'enter alpha',
      'alpha body',
      'leave alpha',
      'enter scopedBeta',
      'scope in scopedBeta',
      'beta body',
      'scope out scopedBeta',
      'leave scopedBeta (scoped)',
    ]);
    expect(ctx.message).toBe('from alpha');
    expect(ends.map((e) => e.result)).toEqual([{ message: 'from alpha' }, { requestId: 'from beta' }]);
  });

  it('gets the very times the step timing reports', async () => {
    const { observer, ends } = recorder();
    const slow: Step = async function slow() {
      await sleep(20);
    };
    const timings: StepTiming[] = [];
    await createPipeline([slow]).run(freshContext(), deps, timings, observer);
    expect(ends[0]!.span).toBe(timings[0]!.ms);
    expect(ends[0]!.span).toBeGreaterThanOrEqual(15);
  });

  it('is told of a failing step with what it threw, and the failure still reaches the caller', async () => {
    const { observer, ends } = recorder();
    const original = new Error('defect');
    const ok: Step = function ok() {};
    const scopedBad: Step = async function scopedBad() {
      throw original;
    };
    const unreached: Step = function unreached() {};
    await expect(createPipeline([ok, scopedBad, unreached]).run(freshContext(), deps, [], observer)).rejects.toBeInstanceOf(StepError);
    expect(ends.map((e) => [e.name, e.ok])).toEqual([
      ['ok', true],
      ['scopedBad', false],
    ]);
    expect(ends[1]!.result).toBe(original);
  });
});
