/**
 * Rate limits (docs/api.md#rate-limits): chats per minute per session (`orgId`, `propertyId`, `session_id`),
 * per client and per organisation, in fixed one-minute windows. The client is the caller key's
 * name with CALLER_API_KEYS, else the peer's IP address: a client that sends every chat with a
 * new `session_id` is limited too. Windows are counted narrowest first (session, client,
 * organisation); a chat refused by one is not counted by the next. Over a limit: 429
 * `{"detail": "Too Many Requests"}` with `Retry-After` and the `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` headers; a chat let through gets the same three headers
 * for the limit closest to running out.
 *
 * This hook only names the chat's windows (after caller auth and body validation); the chat's
 * admission counts them (src/http/chat-admission.ts, src/turns/chat-turns.ts) with its
 * Idempotency-Key claim, so a replayed answer, a 409 or a 422 is never counted, and a chat refused
 * here gives its key back. With Redis the session's window is counted in the script that enters
 * the turn queue and the client's and organisation's each in a call of its own (shared by every
 * instance); without it, or while Redis cannot answer, in process.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionNameOf, type SessionOf } from '../pipeline/session-key.ts';
import type { RateWindow, RateWindows, WindowCount } from '../turns/rate-windows.ts';
import { sendError } from './error-replies.ts';
import type { RequestHook } from './hook-outcome.ts';
import { inProcessWindowCounter } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The chat's rate-limit windows, counted with the start of its turn; undefined when no limit is set. */
    rateLimitWindows: RateWindows | undefined;
  }
}

export interface RateLimitSettings {
  /** RATE_LIMIT_SESSION_PER_MIN (config default 30); 0 or unset = off. */
  readonly sessionPerMin?: number;
  /** RATE_LIMIT_ORG_PER_MIN (config default 0); 0 or unset = off. */
  readonly orgPerMin?: number;
  /** RATE_LIMIT_CLIENT_PER_MIN (config default 0); 0 or unset = off. */
  readonly clientPerMin?: number;
}

function setHeaders(reply: FastifyReply, max: number, remaining: number, resetSeconds: number): void {
  void reply.header('ratelimit-limit', max);
  void reply.header('ratelimit-remaining', remaining);
  void reply.header('ratelimit-reset', resetSeconds);
}

/**
 * Answers from the counts of a chat's windows: over a limit, 429 with its headers (false); let
 * through, the headers of the window closest to running out (true).
 */
export function answerRateLimits(reply: FastifyReply, counts: readonly WindowCount[]): boolean {
  let tightest: { count: WindowCount; remaining: number } | undefined;
  for (const count of counts) {
    const remaining = Math.max(0, count.max - count.current);
    if (count.current > count.max) {
      const seconds = Math.max(1, Math.ceil(count.ttlMs / 1000));
      setHeaders(reply, count.max, 0, seconds);
      sendError(reply, 429, 'Too Many Requests', { 'retry-after': seconds });
      return false;
    }
    if (tightest === undefined || remaining < tightest.remaining) tightest = { count, remaining };
  }
  if (tightest !== undefined) setHeaders(reply, tightest.count.max, tightest.remaining, Math.ceil(tightest.count.ttlMs / 1000));
  return true;
}

/**
 * The chat route's rate-limit hook (chat-plugin.ts): names the chat's windows; undefined when no
 * limit is set. Built once for every route prefix, so a client's chats count in one set of
 * in-process windows whichever path they take.
 */
export function rateLimits(settings: RateLimitSettings = {}): RequestHook | undefined {
  const sessionPerMin = settings.sessionPerMin ?? 0;
  const orgPerMin = settings.orgPerMin ?? 0;
  const clientPerMin = settings.clientPerMin ?? 0;
  if (sessionPerMin === 0 && orgPerMin === 0 && clientPerMin === 0) return undefined;
  const counter = inProcessWindowCounter();
  const body = (request: FastifyRequest) => request.body as SessionOf;

  /** The windows shared by many sessions, narrowest first. */
  const sharedWindowsOf = (request: FastifyRequest): RateWindow[] => {
    const windows: RateWindow[] = [];
    // A caller key's name has no ':' (CALLER_API_KEYS entries are name:key); an IPv6 address has, under its own prefix.
    if (clientPerMin > 0) windows.push({ key: request.caller === undefined ? `client-ip:${request.ip}` : `client-key:${request.caller.name}`, max: clientPerMin });
    if (orgPerMin > 0) windows.push({ key: `org:${body(request).orgId}`, max: orgPerMin });
    return windows;
  };

  return (request, _reply, done) => {
    // The placeholder session id counts per conversation (src/pipeline/session-key.ts).
    const session = sessionPerMin > 0 ? { key: `session:${sessionNameOf(body(request))}`, max: sessionPerMin } : undefined;
    const shared = sharedWindowsOf(request);
    const all = session === undefined ? shared : [session, ...shared];
    request.rateLimitWindows = {
      session,
      shared,
      windowMs: WINDOW_MS,
      countLocally: async () => counter.count(all, WINDOW_MS),
      uncountLocally: () => counter.uncount(all),
    };
    done();
  };
}
