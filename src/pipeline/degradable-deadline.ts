import { performance } from 'node:perf_hooks';

/** At most this much of the chat's time is kept for the steps after a call it can do without. */
export const STORE_RESERVE_MS = 2_000;

/**
 * docs/api.md#deadline, docs/api.md#when-a-party-fails: translate and the property API degrade the reply instead of failing the
 * chat, so their calls must not spend the time that storing the question and answer (GraphQL,
 * after them) still needs: they get the chat's deadline minus a reserve of STORE_RESERVE_MS, or
 * half of what is left when less than twice that is left.
 */
export function degradableDeadline(deadlineAt: number, now: number = performance.now()): number {
  return deadlineAt - Math.min(STORE_RESERVE_MS, (deadlineAt - now) / 2);
}
