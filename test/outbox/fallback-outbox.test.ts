import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeliveryOutcome } from '../../src/clients/handoff-client.ts';
import { OutboxUnavailableError } from '../../src/errors.ts';
import { createBullmqOutbox } from '../../src/outbox/bullmq-outbox.ts';
import { createFallbackOutbox } from '../../src/outbox/fallback-outbox.ts';
import type { OutboxEvents } from '../../src/outbox/outbox.ts';
import { createSqliteOutbox } from '../../src/outbox/sqlite-outbox.ts';
import { freePort } from '../helpers/redis-server.ts';
import { handoff, waitFor } from './outbox-contract.ts';

/** Redis configured but not there (nothing listens on the port), and a real local outbox. */
async function withoutRedis(answer: () => DeliveryOutcome) {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-fallback-'));
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  const stored: string[] = [];
  const events: OutboxEvents = { enqueued: (store) => stored.push(store), attempted() {}, deadLettered() {} };
  const common = { deliver: async () => answer(), policy: { backoff: { baseMs: 20, capMs: 100 }, maxAgeMs: 60_000 }, logger, events };
  const shared = createBullmqOutbox({ redis: `redis://127.0.0.1:${await freePort()}`, ...common, queueName: `handoffs-${randomUUID()}` });
  const local = createSqliteOutbox({ file: join(dir, 'handoff-outbox.sqlite'), ...common, pollIntervalMs: 20 });
  const outbox = createFallbackOutbox(shared, local, logger);
  return {
    outbox,
    stored,
    async dispose() {
      await outbox.stop(0);
      await outbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('shared outbox with the local one behind it', () => {
  it('keeps a handoff locally when Redis cannot take it, and is ready as long as the local one is', async () => {
    const { outbox, stored, dispose } = await withoutRedis(() => ({ result: 'delivered' }));
    try {
      await outbox.enqueue(handoff());
      expect(stored).toEqual(['local']);
      expect(await outbox.ready()).toBe(true);
      expect((await outbox.counts()).map((c) => c.store)).toEqual(['local']);
      // The admin list needs both stores; with Redis down it says so (the route answers 503).
      await expect(outbox.list('dead')).rejects.toBeInstanceOf(OutboxUnavailableError);
    } finally {
      await dispose();
    }
  });

  it('re-queues a local dead letter while Redis is down; an unknown id waits for Redis', async () => {
    const { outbox, dispose } = await withoutRedis(() => ({ result: 'permanent', reason: 'status_400' }));
    try {
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await waitFor(async () => ((await outbox.counts())[0]?.dead === 1 ? true : undefined), 5_000, 'the dead letter');
      expect(await outbox.retry(h.handoff_id)).toBe('queued');
      await expect(outbox.retry(randomUUID())).rejects.toBeInstanceOf(OutboxUnavailableError);
    } finally {
      await dispose();
    }
  });
});
