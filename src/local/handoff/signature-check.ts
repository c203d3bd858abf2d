/**
 * The receiver's side of docs/contracts.md#handoff-receiver: checks `X-Chat-Adapter-Signature: t=<unix s>,v1=<hex>[,v1=...]`
 * against HMAC-SHA256(secret, "<t>.<raw body>") for each secret it knows, in constant time, and
 * refuses a timestamp more than 5 minutes from its clock (a replay of an old delivery).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_S = 300;
const MAX_PARTS = 16;

export type SignatureVerdict = { readonly ok: true } | { readonly ok: false; readonly status: 400 | 401; readonly detail: string };

function parse(header: string): { t: number; v1: string[] } | null {
  const parts = header.split(',', MAX_PARTS + 1);
  if (parts.length > MAX_PARTS) return null;
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) v1.push(value);
  }
  return t === undefined || v1.length === 0 ? null : { t, v1 };
}

export function checkSignature(
  header: string | string[] | undefined,
  rawBody: string,
  secrets: readonly string[],
  nowMs: number,
): SignatureVerdict {
  if (typeof header !== 'string') return { ok: false, status: 401, detail: 'missing X-Chat-Adapter-Signature' };
  const parsed = parse(header);
  if (parsed === null) return { ok: false, status: 400, detail: 'malformed X-Chat-Adapter-Signature' };
  if (Math.abs(nowMs / 1000 - parsed.t) > SIGNATURE_TOLERANCE_S) return { ok: false, status: 401, detail: 'stale X-Chat-Adapter-Signature' };
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${parsed.t}.${rawBody}`).digest();
    if (parsed.v1.some((hex) => timingSafeEqual(Buffer.from(hex, 'hex'), expected))) return { ok: true };
  }
  return { ok: false, status: 401, detail: 'X-Chat-Adapter-Signature does not match' };
}
