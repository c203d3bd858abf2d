/**
 * What a chat with a handoff pays for the durable write (docs/operations.md#handoffs-and-dead-letters): the time `enqueue` takes
 * on the local SQLite outbox and, when REDIS_URL is given, on the shared BullMQ outbox. Delivery is
 * not started (it never delays a reply anyway).
 *
 *   npx node scripts/bench-outbox-write.ts [writes=2000]
 *   REDIS_URL=redis://127.0.0.1:6379 npx node scripts/bench-outbox-write.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Handoff } from '../schemas/handoff.schema.ts';
import { createBullmqOutbox } from '../src/outbox/bullmq-outbox.ts';
import { DEFAULT_HANDOFF_BACKOFF } from '../src/outbox/delivery-policy.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import { createSqliteOutbox } from '../src/outbox/sqlite-outbox.ts';

const total = Number(process.argv[2] ?? 2_000);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const common = { deliver: async () => ({ result: 'delivered' as const }), policy: { backoff: DEFAULT_HANDOFF_BACKOFF, maxAgeMs: 86_400_000 }, logger: quiet };

const handoff = (): Handoff => ({
  handoff_id: randomUUID(), conversation_id: '1111111111111111111', propertyId: '1234567890123456789',
  orgId: '9876543210987654321', session_id: 'd41d8cd98f00b204e9800998ecf8427e', intent: 'maintenance',
  sub_intent: 'emergency_maintenance', message: 'Water is pouring through the ceiling of unit 4B, please send someone now',
  contact: { name: 'Dana Whitfield', phone: '+14155550134', email: 'dana@example.com' }, trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
  language: 'en', reply: 'Someone from the team will contact you shortly.', requested_at: new Date().toISOString(),
  transcript: [{ role: 'user', content: 'Water is pouring through the ceiling of unit 4B, please send someone now' }, { role: 'assistant', content: 'Someone from the team will contact you shortly.' }],
});

async function measure(name: string, outbox: Outbox): Promise<void> {
  for (let i = 0; i < 100; i++) await outbox.enqueue(handoff()); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < total; i++) {
    const started = performance.now();
    await outbox.enqueue(handoff());
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(3);
  console.log(`${name}: ${total} writes, median ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-outbox-'));
const local = createSqliteOutbox({ file: join(dir, 'handoff-outbox.sqlite'), ...common });
await measure('local SQLite outbox (WAL, synchronous=NORMAL)', local);
await local.close();
rmSync(dir, { recursive: true, force: true });

const redisUrl = process.env['REDIS_URL'];
if (redisUrl) {
  const shared = createBullmqOutbox({ redis: redisUrl, ...common, queueName: `bench-${randomUUID()}` });
  while (!(await shared.ready())) await new Promise((resolve) => setTimeout(resolve, 50));
  await measure('shared BullMQ outbox (Queue.add)', shared);
  await shared.close();
} else {
  console.log('shared BullMQ outbox: skipped (set REDIS_URL to measure it)');
}
