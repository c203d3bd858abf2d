/**
 * Concurrency ceilings per client and per organisation (docs/api.md#fair-shares), as hooks of the
 * chat route (chat-plugin.ts): after caller auth and body validation, before the Idempotency-Key, the rate limits
 * and the session's turn (so a refused chat is neither counted nor queued), a chat takes a lease
 * on its client's counter (the caller key's name, else the peer address) and its organisation's.
 * Over a ceiling: 429 `{"detail": "Too many chats in flight for this client"}` (or `... for this
 * organisation`) with `Retry-After: 1`; nothing is called or stored. The lease is given back when
 * the chat's work ends: its answer sent (onSend), its stream ended or abandoned once its turn
 * completed (onResponse), or an error answered; a chat whose caller left keeps its lease until its
 * turn completes, so abandoned chats count against the client that sent them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Admission, CeilingCount, CeilingName, ConcurrencyCeilings } from '../fairness/concurrency-ceilings.ts';
import { sendError } from './error-replies.ts';
import type { RequestHook, SendHook } from './hook-outcome.ts';

export const CONCURRENCY_RETRY_AFTER_S = 1;

declare module 'fastify' {
  interface FastifyRequest {
    /** Gives the chat's concurrency leases back (idempotent); undefined when it holds none. */
    concurrencyRelease: (() => void) | undefined;
  }
}

export interface ConcurrencyLimitSettings {
  readonly ceilings: ConcurrencyCeilings;
  /** CONCURRENCY_PER_CLIENT; 0 = off. */
  readonly perClient: number;
  /** CONCURRENCY_PER_ORG; 0 = off. */
  readonly perOrg: number;
  /** Told each refusal (metrics). */
  readonly onRefused?: (ceiling: CeilingName) => void;
}

export const refusalDetail = (ceiling: CeilingName): string => `Too many chats in flight for this ${ceiling}`;

const release = (request: FastifyRequest): void => {
  const give = request.concurrencyRelease;
  request.concurrencyRelease = undefined;
  give?.();
};

export interface ConcurrencyHooks {
  /** Takes the chat's leases (429 over a ceiling). */
  readonly preHandler: RequestHook;
  /** Gives them back when the answer goes out... */
  readonly onSend: SendHook;
  /** ...or when the request ends without one. */
  readonly onResponse: RequestHook;
}

/** The chat route's concurrency hooks (chat-plugin.ts); undefined when no ceiling is set. */
export function concurrencyLimits(settings: Partial<ConcurrencyLimitSettings> = {}): ConcurrencyHooks | undefined {
  const { ceilings, perClient = 0, perOrg = 0 } = settings;
  if (ceilings === undefined || (perClient === 0 && perOrg === 0)) return undefined;

  const countsOf = (request: FastifyRequest): CeilingCount[] => {
    const counts: CeilingCount[] = [];
    // A caller key's name has no ':' (CALLER_API_KEYS entries are name:key): it cannot pass for an address.
    if (perClient > 0) counts.push({ ceiling: 'client', id: request.caller === undefined ? `ip:${request.ip}` : `key:${request.caller.name}`, max: perClient });
    if (perOrg > 0) counts.push({ ceiling: 'organisation', id: (request.body as { orgId: string }).orgId, max: perOrg });
    return counts;
  };
  const answer = (request: FastifyRequest, reply: FastifyReply, admission: Admission): boolean => {
    if (admission.admitted) {
      request.concurrencyRelease = admission.release;
      return true;
    }
    settings.onRefused?.(admission.ceiling);
    sendError(reply, 429, refusalDetail(admission.ceiling), { 'retry-after': CONCURRENCY_RETRY_AFTER_S });
    return false;
  };

  return {
    // The in-process ceilings answer without a promise.
    preHandler(request, reply, done) {
      const admission = ceilings.acquire(countsOf(request));
      if (!(admission instanceof Promise)) {
        if (answer(request, reply, admission)) done();
        return;
      }
      admission.then((settled) => {
        if (answer(request, reply, settled)) done();
      }, done);
    },
    onSend(request, _reply, payload, done) {
      release(request);
      done(null, payload);
    },
    onResponse(request, _reply, done) {
      release(request);
      done();
    },
  };
}
