/**
 * What the concurrency ceilings (docs/api.md#fair-shares) cost a chat in the service's process, for
 * `npm run bench:clients`: one admission and its release as the chat route makes them (the client's
 * and the organisation's counters, the defaults' ceilings, never full at the load's 20 at a time),
 * counted in process (no REDIS_URL) and on Redis (src/fairness/redis-concurrency.ts). A release is
 * not waited for by a chat; here each kind's turn ends only once the releases sent are answered, so
 * that their CPU is counted.
 */
import { LocalConcurrency } from '../../src/fairness/local-concurrency.ts';
import { RedisConcurrency } from '../../src/fairness/redis-concurrency.ts';
import type { CeilingCount, ConcurrencyCeilings } from '../../src/fairness/concurrency-ceilings.ts';
import { DEFAULT_CONCURRENCY_PER_CLIENT, DEFAULT_CONCURRENCY_PER_ORG } from '../../src/config/fair-shares-config.ts';
import { readyRedis } from './ready-redis.ts';

/** As the route counts a chat of the benchmark's load: its peer address, its organisation. */
const COUNTS: readonly CeilingCount[] = [
  { ceiling: 'client', id: 'ip:127.0.0.1', max: DEFAULT_CONCURRENCY_PER_CLIENT },
  { ceiling: 'organisation', id: '9876543210987654321', max: DEFAULT_CONCURRENCY_PER_ORG },
];
const LEASE_MS = 35_000;

export interface CeilingKinds {
  readonly kinds: Record<string, () => Promise<unknown>>;
  /** Resolves once every release sent so far has been answered (a PING behind them on the same connection). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function ceilingKinds(url: string): Promise<CeilingKinds> {
  const client = await readyRedis(url);
  const admitAndRelease = (ceilings: ConcurrencyCeilings) => async (): Promise<void> => {
    const admission = await ceilings.acquire(COUNTS);
    if (!admission.admitted) throw new Error(`refused by the ${admission.ceiling} ceiling`);
    admission.release();
  };
  return {
    kinds: {
      'ceilings, in process': admitAndRelease(new LocalConcurrency(LEASE_MS)),
      'ceilings, Redis': admitAndRelease(new RedisConcurrency({ redis: client, leaseMs: LEASE_MS })),
    },
    async settled() {
      await client.ping();
    },
    async close() {
      await client.quit();
    },
  };
}
