import { createHash } from 'node:crypto';

/**
 * docs/api.md#idempotency: the request id of a chat sent with an `Idempotency-Key`, derived from the
 * organisation and the key, so that a retry gets the same `clientMessageKey` (nothing stored twice)
 * and two organisations sending the same key never share a stored message. It is a UUID version 8
 * (RFC 9562, the name-based SHA-256 layout of its appendix B.2): the first 16 bytes of
 * SHA-256("<orgId>:<key>") with the version and variant bits set. `orgId` never holds a ':', so the
 * pair is unambiguous. The idempotency store keys its records by the same id.
 */
export function requestIdFor(orgId: string, idempotencyKey: string): string {
  const bytes = createHash('sha256').update(`${orgId}:${idempotencyKey}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
