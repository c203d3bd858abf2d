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

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
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
