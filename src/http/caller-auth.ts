/**
 * Caller authentication and tenant scoping (docs/api.md#caller-keys). With CALLER_API_KEYS set, a chat needs
 * `Authorization: Bearer <key>`: checked in onRequest, before the body is read (401), and, once the
 * body is validated, against the organisations the key may post for (403), before anything else
 * runs. Keys are held only as SHA-256 digests (bearer-key.ts); the entry's name, never the key,
 * goes on the request's log lines, its server span and its metrics. A `pk_` key is a publishable
 * key (PUBLISHABLE_KEYS, checked by publishable-keys.ts): it also needs its `Origin`, and is
 * scoped to properties as well.
 */
import { ATTR_CALLER } from '../telemetry/attributes.ts';
import { bearerToken, digestKey, matchKey, soleAuthorization } from './bearer-key.ts';
import type { PublishableKeyEntry } from '../config/config.schema.ts';
import { sendError } from './error-replies.ts';
import type { RequestHook } from './hook-outcome.ts';
import { isPublishableToken, publishableKeyCheck } from './publishable-keys.ts';

/** One CALLER_API_KEYS entry (src/config/caller-keys.ts parses them). */
export interface CallerKey {
  readonly name: string;
  readonly key: string;
  /** The organisations the key may post for; undefined = any. */
  readonly orgIds: readonly string[] | undefined;
}

/** Who sent a chat: the name of the key's entry and the organisations it may post for. */
export interface Caller {
  readonly name: string;
  readonly orgIds: ReadonlySet<string> | undefined;
  /** The properties a publishable key may chat for; undefined = any (secret caller keys). */
  readonly propertyIds?: ReadonlySet<string> | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller of a chat, a resume or a stop; undefined without caller keys and on other routes. */
    caller: Caller | undefined;
  }
}

export interface CallerAuthOptions {
  /** CALLER_API_KEYS; undefined = no caller authentication. */
  readonly callerKeys?: readonly CallerKey[] | undefined;
  /** PUBLISHABLE_KEYS (publishable-keys.ts); with either set, every chat needs a key. */
  readonly publishableKeys?: readonly PublishableKeyEntry[] | undefined;
}

export interface CallerAuthHooks {
  /** The key, before the body is read (401): the chat's, and a resume's or a stop's. */
  readonly onRequest: RequestHook;
  /**
   * The chat's organisation and property against the key's (403), once the body is validated. A
   * resume or a stop is checked against its turn's once the turn is found (resume-routes.ts).
   */
  readonly preHandler: RequestHook;
}

/** The chat routes' key checks (hooks of those routes: chat-plugin.ts); undefined when no key is configured. */
export function callerAuth(options: CallerAuthOptions): CallerAuthHooks | undefined {
  if (options.callerKeys === undefined && options.publishableKeys === undefined) return undefined;
  const publishable = publishableKeyCheck(options.publishableKeys ?? []);
  // Digested once; the keys themselves are not kept.
  const digests = (options.callerKeys ?? []).map((entry) => digestKey(entry.key));
  const callers: readonly Caller[] = (options.callerKeys ?? []).map((entry) => ({
    name: entry.name,
    orgIds: entry.orgIds === undefined ? undefined : new Set(entry.orgIds),
  }));

  return {
    // A refused request is answered here and stops the chain (done is not called).
    onRequest(request, reply, done) {
      // Two Authorization headers (or two credentials in one) are refused, never "first wins".
      const token = bearerToken(soleAuthorization(request.raw.rawHeaders));
      // A browser's publishable key (pk_...) counts only from one of its origins.
      const caller = isPublishableToken(token) ? publishable(token, request.headers.origin) : callers[matchKey(token, digests)];
      if (caller === undefined) {
        sendError(reply, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
        return;
      }
      request.caller = caller;
      request.span.setAttribute(ATTR_CALLER, caller.name);
      request.log = request.log.child({ caller: caller.name });
      reply.log = request.log;
      done();
    },
    preHandler(request, reply, done) {
      const orgIds = request.caller?.orgIds;
      const propertyIds = request.caller?.propertyIds;
      const body = request.body as { orgId: string; propertyId: string };
      if ((orgIds === undefined || orgIds.has(body.orgId)) && (propertyIds === undefined || propertyIds.has(body.propertyId))) {
        done();
        return;
      }
      sendError(reply, 403, 'Forbidden');
    },
  };
}
