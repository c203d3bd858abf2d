/**
 * Bearer keys (docs/api.md#caller-keys): keys are kept only as SHA-256 digests, computed once at start-up,
 * and a presented key is compared with every digest in constant time, so neither the comparison
 * time nor a log line ever tells anything about a key.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export type KeyDigest = Buffer;

export function digestKey(key: string): KeyDigest {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined. A key never holds ',' (the
 * configuration refuses it), so a comma means two credentials joined into one header: refused.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+([^\s,]+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * The one Authorization header of a request, from its raw header list (Node keeps only the first of
 * several in `headers`); undefined when there is none or more than one, so that a second
 * credential is never silently ignored.
 */
export function soleAuthorization(rawHeaders: readonly string[]): string | undefined {
  let found: string | undefined;
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'authorization') continue;
    count += 1;
    found = rawHeaders[i + 1];
  }
  return count === 1 ? found : undefined;
}

/** Index of the digest the token matches, or -1; every digest is compared, whatever matches. */
export function matchKey(token: string | undefined, digests: readonly KeyDigest[]): number {
  if (token === undefined) return -1;
  const presented = digestKey(token);
  let found = -1;
  digests.forEach((digest, i) => {
    if (timingSafeEqual(presented, digest) && found === -1) found = i;
  });
  return found;
}
