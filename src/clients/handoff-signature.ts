/**
 * Handoff signatures (docs/handoff-receivers.md), after the Standard Webhooks specification:
 * `webhook-id` (the handoff_id, the same on every attempt), `webhook-timestamp` (unix seconds of this
 * attempt) and `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>`, one
 * space-separated `v1,` entry per secret of HANDOFF_SIGNING_SECRET, the newest first. A `whsec_`
 * secret's key is the bytes of its base64 part. Signed afresh for each attempt: a retry carries a
 * fresh timestamp over the same id and body, so a receiver that refuses timestamps more than 5
 * minutes off accepts a late retry and refuses a replayed old delivery; the id, covered by the
 * signature, is what receivers deduplicate on.
 *
 * With HANDOFF_LEGACY_SIGNATURE=true the former header is sent as well (kept for one minor version):
 * `X-Chat-Adapter-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret text, "<t>.<raw body>")>`, keyed
 * as before with each secret's whole text.
 */
import { createHmac } from 'node:crypto';

export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';
/** The header of the former scheme, sent only with HANDOFF_LEGACY_SIGNATURE=true. */
export const LEGACY_SIGNATURE_HEADER = 'x-chat-adapter-signature';

export interface HandoffSigner {
  /** The signature headers of one attempt at delivering `body` (the handoff `id`) at `nowMs`. */
  headers(id: string, body: string, nowMs: number): Record<string, string>;
}

export interface SignerOptions {
  /** HANDOFF_LEGACY_SIGNATURE: also send `X-Chat-Adapter-Signature`. */
  readonly legacy?: boolean;
}

/** The HMAC key of a `whsec_<base64>` secret: the bytes its base64 part decodes to (the configuration checked its form). */
export function webhookSecretKey(secret: string): Buffer {
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

/** The Standard Webhooks signature entry of one key. */
export function webhookSignature(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** A signer for `secrets` (`whsec_...`, the newest first), or undefined when there are none (unsigned). */
export function createHandoffSigner(secrets: readonly string[], options: SignerOptions = {}): HandoffSigner | undefined {
  if (secrets.length === 0) return undefined;
  // Decoded once; only the keys are kept, never logged.
  const keys = secrets.map(webhookSecretKey);
  const legacyKeys = options.legacy === true ? [...secrets] : [];
  return {
    headers(id, body, nowMs) {
      const t = Math.floor(nowMs / 1000);
      const headers: Record<string, string> = {
        [WEBHOOK_ID_HEADER]: id,
        [WEBHOOK_TIMESTAMP_HEADER]: String(t),
        [WEBHOOK_SIGNATURE_HEADER]: keys.map((key) => webhookSignature(key, id, t, body)).join(' '),
      };
      if (legacyKeys.length > 0) {
        const signed = `${t}.${body}`;
        headers[LEGACY_SIGNATURE_HEADER] = [`t=${t}`, ...legacyKeys.map((key) => `v1=${createHmac('sha256', key).update(signed).digest('hex')}`)].join(',');
      }
      return headers;
    },
  };
}
