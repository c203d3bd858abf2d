/**
 * Rate limits (docs/api.md#rate-limits): chats per minute per session (`orgId`, `propertyId`, `session_id`)
 * and per organisation, counted by @fastify/rate-limit in fixed one-minute windows. Both are keyed
 * from the validated body, so they run in preHandler (after caller auth, before anything is called
 * or stored). Over a limit: 429 `{"detail": "Too Many Requests"}` with `Retry-After` and the
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
import { chatRouteMatcher } from './chat-route.ts';
import { continueUnlessAnswered } from './hook-outcome.ts';
import { rateLimitStore, type RateLimitStoreEvents } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;

export interface RateLimitSettings {
  /** RATE_LIMIT_SESSION_PER_MIN (config default 30); 0 or unset = off. */
  readonly sessionPerMin?: number;
  /** RATE_LIMIT_ORG_PER_MIN (config default 0); 0 or unset = off. */
  readonly orgPerMin?: number;
  /** With REDIS_URL: the limiter's own connection (connectRedis), counters shared by every instance. */
  readonly redis?: Redis | undefined;
  readonly events?: RateLimitStoreEvents;
}

export interface RateLimitOptions extends RateLimitSettings {
  readonly routePrefix: string;
}

interface ChatKeys {
  readonly orgId: string;
  readonly propertyId: string;
  readonly session_id: string;
}

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
  if (sessionPerMin === 0 && orgPerMin === 0) return;
  await app.register(fastifyRateLimit, {
    global: false,
    // The store never fails (it counts in process while Redis cannot); this is the second belt.
    skipOnError: true,
    store: rateLimitStore(options.redis, options.events),
  });

  const limit = (max: number, key: (body: ChatKeys) => string): Check => {
    const check = app.createRateLimit({ max, timeWindow: WINDOW_MS, keyGenerator: (request) => key(request.body as ChatKeys) });
    return async (request) => {
      const result = await check(request);
      if (result.isAllowed) return { max, remaining: max, resetSeconds: 0, exceeded: false };
      return { max, remaining: result.remaining, resetSeconds: result.ttlInSeconds, exceeded: result.isExceeded };
    };
  };
  const checks: Check[] = [];
  // ':' never occurs in an id (digits, Base64, hex, UUID), so the parts cannot run together.
  if (sessionPerMin > 0) checks.push(limit(sessionPerMin, (b) => `session:${b.orgId}:${b.propertyId}:${b.session_id}`));
  if (orgPerMin > 0) checks.push(limit(orgPerMin, (b) => `org:${b.orgId}`));
  const isChat = chatRouteMatcher(options.routePrefix);

  /** Counts the chat against each limit; over one, answers 429 and says so (false). */
  const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    // One after the other, the session first: a chat refused by one limit is not counted by the
    // next, so one visitor over the session limit never eats the organisation's allowance.
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
