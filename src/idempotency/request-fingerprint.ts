import { createHash } from 'node:crypto';

/**
 * JSON with object members sorted by name at every level, so that two bodies with the same members
 * give the same text whatever order the caller wrote them in. Arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((name) => record[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * CONTRACTS 6.2: what "the same request" means for an Idempotency-Key: SHA-256 (hex) of the
 * validated body (unknown members already dropped, defaults filled in) in canonical form.
 */
export function requestFingerprint(validatedBody: unknown): string {
  return createHash('sha256').update(canonicalJson(validatedBody)).digest('hex');
}
