import { createHash } from 'node:crypto';

/**
 * JSON with object members sorted by name at every level, so that two bodies with the same members
 * give the same text whatever order the caller wrote them in. Arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const name of Object.keys(record).sort()) {
    const member = record[name];
    if (member === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(name)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/**
 * docs/api.md#idempotency: what "the same request" means for an Idempotency-Key: SHA-256 (hex) of the
 * validated body (unknown members already dropped, defaults filled in) in canonical form.
 */
export function requestFingerprint(validatedBody: unknown): string {
  return createHash('sha256').update(canonicalJson(validatedBody)).digest('hex');
}
