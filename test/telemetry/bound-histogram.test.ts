import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { BoundHistogram } from '../../src/telemetry/fast/bound-histogram.ts';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVATIONS: [string, string, number][] = [
  ['askEngine', 'ok', 0.0004],
  ['askEngine', 'ok', 0.01],
  ['askEngine', 'ok', 0.25],
  ['askEngine', 'ok', 7],
  ['storeAnswer', 'error', 0.05],
  ['formatReply', 'ok', 0],
];

describe('BoundHistogram', () => {
  it("writes, line for line, what prom-client's Histogram writes for the same observations", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const config = { name: 'step_seconds', help: 'Step time.', labelNames: ['step', 'outcome'], buckets: BUCKETS };
    const bound = new BoundHistogram({ ...config, registers: [ours] });
    const reference = new Histogram({ ...config, registers: [theirs] });
    const children = new Map<string, ReturnType<BoundHistogram['child']>>();
    for (const [step, outcome, value] of OBSERVATIONS) {
      const key = `${step}/${outcome}`;
      if (!children.has(key)) children.set(key, bound.child(step, outcome));
      children.get(key)!.observe(value);
      reference.observe({ step, outcome }, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('leaves out a label whose value is undefined, as prom-client does for a label not given', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const config = { name: 'request_seconds', help: 'Requests.', labelNames: ['route', 'caller'], buckets: BUCKETS };
    const bound = new BoundHistogram({ ...config, registers: [ours] });
    const reference = new Histogram({ ...config, registers: [theirs] });
    bound.child('/chat', undefined).observe(0.02);
    bound.child('/chat', 'web').observe(0.3);
    reference.observe({ route: '/chat' }, 0.02);
    reference.observe({ route: '/chat', caller: 'web' }, 0.3);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('shows a bound child only once observed, and resets to zero with the registry', async () => {
    const registry = new Registry();
    const histogram = new BoundHistogram({ name: 'calls_seconds', help: 'Calls.', labelNames: ['party'], buckets: BUCKETS, registers: [registry] });
    const engine = histogram.child('engine');
    histogram.child('graphql');
    engine.observe(0.02);
    const text = await registry.metrics();
    expect(text).toContain('calls_seconds_count{party="engine"} 1');
    expect(text).not.toContain('graphql');
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('calls_seconds_count');
    engine.observe(0.5);
    expect(await registry.metrics()).toContain('calls_seconds_sum{party="engine"} 0.5');
  });

  it('refuses a value that is not a finite number, like prom-client', () => {
    const child = new BoundHistogram({ name: 'x_seconds', help: 'x', labelNames: ['a'], buckets: BUCKETS, registers: [] }).child('a');
    expect(() => child.observe(Number.NaN)).toThrow(TypeError);
  });
});
