/**
 * The outbox's gauges are read at scrape time; a read that hangs (the shared store's Redis stalled)
 * must not make the scrape late, or Prometheus marks a working instance down.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createOutboxMetrics, type OutboxDepth } from '../../src/telemetry/outbox-metrics.ts';

const depth = (pending: number): OutboxDepth[] => [{ store: 'shared', pending, delivering: 0, dead: 0, oldestUndeliveredSeconds: pending > 0 ? 12 : null }];

describe('the outbox gauges at scrape time', () => {
  it('answer within the budget while the outbox read hangs, with the figures of the last read that answered; the next scrape reads again', async () => {
    const registry = new Registry();
    const metrics = createOutboxMetrics(registry, ['shared'], 100);
    let answer: (value: OutboxDepth[]) => void = () => {};
    let hang = false;
    let pending = 3;
    metrics.watch(() => (hang ? new Promise((resolve) => (answer = resolve)) : Promise.resolve(depth(pending))));

    expect(await registry.getSingleMetricAsString('chat_adapter_handoff_outbox_depth')).toContain('store="shared",state="pending"} 3');

    hang = true;
    const started = performance.now();
    const stalled = await registry.getSingleMetricAsString('chat_adapter_handoff_outbox_depth');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(stalled).toContain('store="shared",state="pending"} 3');

    answer(depth(99));
    await new Promise((resolve) => setImmediate(resolve));
    hang = false;
    pending = 7;
    expect(await registry.getSingleMetricAsString('chat_adapter_handoff_outbox_depth')).toContain('store="shared",state="pending"} 7');
    expect(await registry.getSingleMetricAsString('chat_adapter_handoff_oldest_undelivered_age_seconds')).toContain('store="shared"} 12');
  });
});
