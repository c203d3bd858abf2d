/**
 * Publishable keys (docs/browser-widgets.md#publishable-keys): `Authorization: Bearer pk_...` from
 * browser code. Held, like caller keys, only as SHA-256 digests compared in constant time
 * (bearer-key.ts); a key is accepted only with an `Origin` header that is one of its origins, and
 * the caller it names may chat only for its organisation and properties (checked with the body, 403).
 * Only the chat routes take them; the /admin routes never do (they know only ADMIN_API_KEY, which the
 * configuration refuses to let begin `pk_`).
 */
import type { PublishableKeyEntry } from '../config/config.schema.ts';
import { digestKey, matchKey } from './bearer-key.ts';

export const PUBLISHABLE_PREFIX = 'pk_';

/** The caller a publishable key names: its entry's name, its organisation and properties. */
export interface PublishableCaller {
  readonly name: string;
  readonly orgIds: ReadonlySet<string>;
  readonly propertyIds: ReadonlySet<string>;
}

/** `token`'s caller when it is a known publishable key sent from one of its origins; undefined otherwise (401). */
export type PublishableCheck = (token: string, origin: string | string[] | undefined) => PublishableCaller | undefined;

export function isPublishableToken(token: string | undefined): token is string {
  return token?.startsWith(PUBLISHABLE_PREFIX) === true;
}

export function publishableKeyCheck(entries: readonly PublishableKeyEntry[]): PublishableCheck {
  // Digested once; the keys themselves are not kept.
  const digests = entries.map((entry) => digestKey(entry.key));
  const bound = entries.map((entry) => ({
    origins: new Set(entry.origins) as ReadonlySet<string>,
    caller: { name: entry.name, orgIds: new Set([entry.orgId]), propertyIds: new Set(entry.propertyIds) } satisfies PublishableCaller,
  }));
  return (token, origin) => {
    const found = bound[matchKey(token, digests)];
    // A key without its origin is as good as no key: a server that copied it from a page gets 401.
    if (found === undefined || typeof origin !== 'string' || !found.origins.has(origin)) return undefined;
    return found.caller;
  };
}
