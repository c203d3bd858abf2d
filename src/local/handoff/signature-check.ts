/**
 * The receiver's side of docs/handoff-receivers.md: a hand-written Standard Webhooks verifier.
 * Checks `webhook-signature` (space-separated `v1,<base64>` entries) against
 * HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>") for each `whsec_` secret it knows,
 * in constant time, and refuses a timestamp more than 5 minutes from its clock (a replayed delivery).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_S = 300;
/** More entries than any rotation needs: a longer header is refused unread. */
const MAX_SIGNATURES = 16;
const ID = /^[\x21-\x7e]{1,255}$/;
const TIMESTAMP = /^\d{1,12}$/;
const V1 = /^v1,([A-Za-z0-9+/]{43}=)$/;

export type SignatureVerdict = { readonly ok: true } | { readonly ok: false; readonly status: 400 | 401; readonly detail: string };

type Header = string | string[] | undefined;

export interface WebhookHeaders {
  readonly id: Header;
  readonly timestamp: Header;
  readonly signature: Header;
}

function signatures(header: string): Buffer[] | null {
  const entries = header.split(' ', MAX_SIGNATURES + 1);
  if (entries.length > MAX_SIGNATURES) return null;
  const found: Buffer[] = [];
  // Entries of another version (or malformed ones) are skipped, as the specification says.
  for (const entry of entries) {
    const match = V1.exec(entry);
    if (match !== null) found.push(Buffer.from(match[1]!, 'base64'));
  }
  return found;
}

/** Verifies one delivery; `secrets` are `whsec_<base64>` strings, `nowMs` the receiver's clock. */
export function checkSignature(headers: WebhookHeaders, rawBody: string, secrets: readonly string[], nowMs: number): SignatureVerdict {
  const { id, timestamp, signature } = headers;
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') {
    return { ok: false, status: 401, detail: 'missing webhook-id, webhook-timestamp or webhook-signature' };
  }
  if (!ID.test(id) || !TIMESTAMP.test(timestamp)) return { ok: false, status: 400, detail: 'malformed webhook-id or webhook-timestamp' };
  const presented = signatures(signature);
  if (presented === null) return { ok: false, status: 400, detail: 'malformed webhook-signature' };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S) return { ok: false, status: 401, detail: 'webhook-timestamp too old or too new' };
  const signed = `${id}.${timestamp}.${rawBody}`;
  for (const secret of secrets) {
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(signed).digest();
    if (presented.some((mac) => timingSafeEqual(mac, expected))) return { ok: true };
  }
  return { ok: false, status: 401, detail: 'webhook-signature does not match' };
}
