/**
 * docs/contracts.md#handoff-receiver: `X-Chat-Adapter-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`
 * (the scheme of Stripe's webhook signatures), one `v1=` per secret of HANDOFF_SIGNING_SECRET, the
 * first secret's first. Computed for each attempt: a retry carries a fresh timestamp over the same
 * body, so a receiver that refuses signatures older than 5 minutes accepts a late retry and refuses a
 * replayed old one. The secrets never leave this module but as digests.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-chat-adapter-signature';

export interface HandoffSigner {
  /** The header value for `body` sent at `nowMs`. */
  sign(body: string, nowMs: number): string;
}

export function createHandoffSigner(secrets: readonly string[]): HandoffSigner | undefined {
  if (secrets.length === 0) return undefined;
  const keys = [...secrets];
  return {
    sign(body, nowMs) {
      const t = Math.floor(nowMs / 1000);
      const signed = `${t}.${body}`;
      return [`t=${t}`, ...keys.map((key) => `v1=${createHmac('sha256', key).update(signed).digest('hex')}`)].join(',');
    },
  };
}
