/**
 * Concurrency ceilings per client and per organisation (docs/api.md#fair-shares), as hooks of the
 * chat route: after caller auth and body validation, before the Idempotency-Key, the rate limits
 * and the session's turn (so a refused chat is neither counted nor queued), a chat takes a lease
 * on its client's counter (the caller key's name, else the peer address) and its organisation's.
 * Over a ceiling: 429 `{"detail": "Too many chats in flight for this client"}` (or `... for this
 * organisation`) with `Retry-After: 1`; nothing is called or stored. The lease is given back when
 * the chat's work ends: its answer sent (onSend), its stream ended or abandoned once its turn
 * completed (onResponse), or an error answered; a chat whose caller left keeps its lease until its
 * turn completes, so abandoned chats count against the client that sent them.
 */
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Admission, CeilingCount, CeilingName, ConcurrencyCeilings } from '../fairness/concurrency-ceilings.ts';
import { chatRouteMatcher } from './chat-route.ts';
import { sendError } from './error-replies.ts';

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

export interface ConcurrencyLimitOptions extends Partial<ConcurrencyLimitSettings> {
  readonly routePrefix: string;
}

export const refusalDetail = (ceiling: CeilingName): string => `Too many chats in flight for this ${ceiling}`;

const release = (request: FastifyRequest): void => {
  const give = request.concurrencyRelease;
  request.concurrencyRelease = undefined;
  give?.();
};

const concurrencyLimitsPlugin: FastifyPluginAsync<ConcurrencyLimitOptions> = async (app, options) => {
  app.decorateRequest('concurrencyRelease', undefined);
  const { ceilings, perClient = 0, perOrg = 0 } = options;
  if (ceilings === undefined || (perClient === 0 && perOrg === 0)) return;
  const isChat = chatRouteMatcher(options.routePrefix);

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
    options.onRefused?.(admission.ceiling);
    sendError(reply, 429, refusalDetail(admission.ceiling), { 'retry-after': CONCURRENCY_RETRY_AFTER_S });
    return false;
  };

  // Callback style like the app's other request hooks: the in-process ceilings answer without a promise.
  app.addHook('preHandler', (request, reply, done) => {
    if (!isChat(request)) return done();
    const admission = ceilings.acquire(countsOf(request));
    if (!(admission instanceof Promise)) {
      if (answer(request, reply, admission)) done();
      return;
    }
    admission.then((settled) => {
      if (answer(request, reply, settled)) done();
    }, done);
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    release(request);
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    release(request);
    done();
  });
};

export const concurrencyLimits = fp(concurrencyLimitsPlugin, { name: 'concurrency-limits', fastify: '5.x' });
