/**
 * HANDOFF_SIGNING_SECRET (docs/handoff-receivers.md): Standard Webhooks secrets, `whsec_<base64>`,
 * comma-separated, the newest first (rotation: the old one stays listed while receivers move over).
 * A malformed secret stops start-up with a message saying which entry and what is wrong, never the
 * secret itself.
 */
import { ConfigError, envOptionalString, type Env } from './env-parsers.ts';

const VARIABLE = 'HANDOFF_SIGNING_SECRET';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The Standard Webhooks specification asks for secrets of 24 to 64 random bytes. */
const MIN_BYTES = 24;
const MAX_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function checkSecret(secret: string, position: number): void {
  const where = `entry ${position}`;
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    throw new ConfigError(VARIABLE, `${where} must be a Standard Webhooks secret: whsec_ followed by base64 (e.g. "whsec_$(openssl rand -base64 32)")`);
  }
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (encoded.length === 0 || !BASE64.test(encoded)) {
    throw new ConfigError(VARIABLE, `${where}: the part after whsec_ must be standard base64 (A-Z a-z 0-9 + /, = padding)`);
  }
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_BYTES || bytes > MAX_BYTES) {
    throw new ConfigError(VARIABLE, `${where}: the secret must decode to ${MIN_BYTES}..${MAX_BYTES} bytes, got ${bytes}`);
  }
}

/** The secrets of HANDOFF_SIGNING_SECRET, newest first; empty when unset (deliveries are not signed). */
export function parseWebhookSecrets(env: Env): readonly string[] {
  const value = envOptionalString(env, VARIABLE);
  if (value === undefined) return [];
  const secrets = value.split(',').map((s) => s.trim());
  secrets.forEach((secret, i) => checkSecret(secret, i + 1));
  return secrets;
}
