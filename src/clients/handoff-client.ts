import { setTimeout as sleep } from 'node:timers/promises';
import type { HandoffRequest } from '../../schemas/handoff.schema.ts';
import type { Logger } from '../pipeline/ports.ts';
import { postAccepted, type HttpParty } from './http-json.ts';

export interface HandoffOptions {
  /** Total delivery tries, including the first. */
  readonly attempts?: number;
  /** First retry delay; doubled for each further retry. */
  readonly backoffMs?: number;
  readonly logger: Logger;
  /** Observers for metrics: a delivery given up, and the number pending changed. */
  readonly onFailed?: () => void;
  readonly onPendingChange?: (pending: number) => void;
}

/**
 * CONTRACTS 3.3: fire-and-forget delivery to `POST {HANDOFF_URL}/handoff`. The chat never waits:
 * `dispatch` returns at once; failures are retried with backoff a bounded number of times and logged.
 */
export function createHandoffDispatcher(target: HttpParty, options: HandoffOptions) {
  const attempts = Math.max(1, options.attempts ?? 4);
  const backoffMs = options.backoffMs ?? 250;
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();

  async function deliver(payload: HandoffRequest): Promise<void> {
    // Log lines carry ids only: the payload holds the visitor's message and contact details.
    const ids = { trace_id: payload.trace_id, conversation_id: payload.conversation_id };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await postAccepted(target, '/handoff', payload);
        options.logger.info({ ...ids, attempt }, 'handoff delivered');
        return;
      } catch (err) {
        const reason = (err as Error).message;
        if (attempt === attempts) {
          options.onFailed?.();
          options.logger.error({ ...ids, attempt, reason }, 'handoff failed, giving up');
          return;
        }
        options.logger.warn({ ...ids, attempt, reason }, 'handoff failed, will retry');
        try {
          await sleep(backoffMs * 2 ** (attempt - 1), undefined, { signal: stopping.signal });
        } catch {
          // Shutting down: one last immediate try instead of waiting out the backoff.
        }
      }
    }
  }

  return {
    dispatch(payload: HandoffRequest): void {
      const delivery = deliver(payload).finally(() => {
        inFlight.delete(delivery);
        options.onPendingChange?.(inFlight.size);
      });
      inFlight.add(delivery);
      options.onPendingChange?.(inFlight.size);
    },
    get pending(): number {
      return inFlight.size;
    },
    async drain(timeoutMs: number): Promise<number> {
      stopping.abort();
      if (inFlight.size === 0) return 0;
      await Promise.race([Promise.allSettled([...inFlight]), sleep(timeoutMs, undefined, { ref: false })]);
      if (inFlight.size > 0) options.logger.error({ pending: inFlight.size }, 'handoffs still pending at shutdown');
      return inFlight.size;
    },
  };
}
