/**
 * Rate limits (docs/api.md#rate-limits): chats per minute per session (`orgId`, `propertyId`, `session_id`),
 * per client and per organisation, counted by @fastify/rate-limit in fixed one-minute windows. The
 * client is the caller key's name with CALLER_API_KEYS, else the peer's IP address (as the plugin
 * keys it): a client that sends every chat with a new `session_id` is limited too. They run in
 * preHandler (after caller auth and body validation, before anything is called or stored). Over a limit: 429 `{"detail": "Too Many Requests"}` with `Retry-After` and the
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` headers; a chat let through gets the
 * same three headers for the limit closest to running out.
 *
 * The plugin's own route hook (`app.rateLimit`) runs once per request whatever the number of
 * limits, and names its headers `x-ratelimit-*` unless told otherwise: two `createRateLimit`
 * checks and our own headers instead.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { sessionNameOf, type SessionOf } from '../pipeline/session-key.ts';
import { chatRouteMatcher } from './chat-route.ts';
import { continueUnlessAnswered } from './hook-outcome.ts';
import { rateLimitStore, type RateLimitStoreEvents } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;

export interface RateLimitSettings {
  /** RATE_LIMIT_SESSION_PER_MIN (config default 30); 0 or unset = off. */
  readonly sessionPerMin?: number;
  /** RATE_LIMIT_ORG_PER_MIN (config default 0); 0 or unset = off. */
  readonly orgPerMin?: number;
  /** RATE_LIMIT_CLIENT_PER_MIN (config default 0); 0 or unset = off. */
  readonly clientPerMin?: number;
  /** With REDIS_URL: the limiter's own connection (connectRedis), counters shared by every instance. */
  readonly redis?: Redis | undefined;
  readonly events?: RateLimitStoreEvents;
}

export interface RateLimitOptions extends RateLimitSettings {
  readonly routePrefix: string;
}

type ChatKeys = SessionOf;

interface Count {
  readonly max: number;
  readonly remaining: number;
  readonly resetSeconds: number;
  readonly exceeded: boolean;
}

type Check = (request: FastifyRequest) => Promise<Count>;

function setHeaders(reply: FastifyReply, count: Count): void {
  void reply.header('ratelimit-limit', count.max);
  void reply.header('ratelimit-remaining', count.remaining);
  void reply.header('ratelimit-reset', count.resetSeconds);
}

const rateLimitsPlugin: FastifyPluginAsync<RateLimitOptions> = async (app, options) => {
  const sessionPerMin = options.sessionPerMin ?? 0;
  const orgPerMin = options.orgPerMin ?? 0;
  const clientPerMin = options.clientPerMin ?? 0;
  if (sessionPerMin === 0 && orgPerMin === 0 && clientPerMin === 0) return;
  await app.register(fastifyRateLimit, {
    global: false,
    // The store never fails (it counts in process while Redis cannot); this is the second belt.
    skipOnError: true,
    store: rateLimitStore(options.redis, options.events),
  });

  const limit = (max: number, key: (request: FastifyRequest) => string): Check => {
    const check = app.createRateLimit({ max, timeWindow: WINDOW_MS, keyGenerator: key });
    return async (request) => {
      const result = await check(request);
      if (result.isAllowed) return { max, remaining: max, resetSeconds: 0, exceeded: false };
      return { max, remaining: result.remaining, resetSeconds: result.ttlInSeconds, exceeded: result.isExceeded };
    };
  };
  const body = (request: FastifyRequest) => request.body as ChatKeys;
  const checks: Check[] = [];
  // ':' never occurs in an id (digits, Base64, hex, UUID), so the parts cannot run together; the
  // placeholder session id counts per conversation (src/pipeline/session-key.ts).
  if (sessionPerMin > 0) checks.push(limit(sessionPerMin, (r) => `session:${sessionNameOf(body(r))}`));
  // A caller key's name has no ':' (CALLER_API_KEYS entries are name:key); an IPv6 address has, under its own prefix.
  if (clientPerMin > 0) checks.push(limit(clientPerMin, (r) => (r.caller === undefined ? `client-ip:${r.ip}` : `client-key:${r.caller.name}`)));
  if (orgPerMin > 0) checks.push(limit(orgPerMin, (r) => `org:${body(r).orgId}`));
  const isChat = chatRouteMatcher(options.routePrefix);

  /** Counts the chat against each limit; over one, answers 429 and says so (false). */
  const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    // One after the other, the narrowest first (session, client, organisation): a chat refused by
    // one limit is not counted by the next, so one visitor over the session limit never eats the
    // client's or the organisation's allowance.
    let tightest: Count | undefined;
    for (const check of checks) {
      const count = await check(request);
      if (count.exceeded) {
        const seconds = Math.max(1, count.resetSeconds);
        setHeaders(reply, { ...count, remaining: 0, resetSeconds: seconds });
        void reply.header('retry-after', seconds).code(429).send({ detail: 'Too Many Requests' });
        return false;
      }
      if (tightest === undefined || count.remaining < tightest.remaining) tightest = count;
    }
    if (tightest !== undefined) setHeaders(reply, tightest);
    return true;
  };

  // Callback style like the app's other request hooks.
  app.addHook('preHandler', (request, reply, done) => {
    if (!isChat(request)) {
      done();
      return;
    }
    continueUnlessAnswered(admit(request, reply), done);
  });
};

export const rateLimits = fp(rateLimitsPlugin, { name: 'rate-limits', fastify: '5.x' });
