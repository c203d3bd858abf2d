/**
 * Concurrency ceilings (docs/api.md#fair-shares, docs/operations.md#metrics): chats refused by
 * each ceiling, and Redis calls that failed so that a chat was counted in process instead.
 */
import { Counter, type Registry } from 'prom-client';
import type { CeilingName } from '../fairness/concurrency-ceilings.ts';

export interface FairShareMetrics {
  refused(ceiling: CeilingName): void;
  fellBack(): void;
}

export function createFairShareMetrics(registry: Registry): FairShareMetrics {
  const registers = [registry];
  const refusals = new Counter({
    name: 'chat_adapter_concurrency_rejections_total',
    help: 'Chats refused (429) because their client or organisation had as many chats in flight as its ceiling allows, by ceiling.',
    labelNames: ['ceiling'] as const,
    registers,
  });
  const fallbacks = new Counter({
    name: 'chat_adapter_concurrency_fallbacks_total',
    help: 'Chats counted against the concurrency ceilings in process because Redis did not answer.',
    registers,
  });
  for (const ceiling of ['client', 'organisation'] as const) refusals.inc({ ceiling }, 0);
  return {
    refused: (ceiling) => refusals.inc({ ceiling }),
    fellBack: () => fallbacks.inc(),
  };
}
