/**
 * CALLER_API_KEYS (docs/api.md#caller-keys): `name:key` (any organisation) or `name:key:orgId|orgId|...`
 * entries, comma-separated. A bad entry stops start-up with a message naming the variable and the
 * entry's position (and name, which is not secret), never the key.
 */
import { ID_PATTERN } from '../../schemas/chat-request.schema.ts';
import type { CallerKeyEntry } from './config.schema.ts';
import { ConfigError, envOptionalString, type Env } from './env-parsers.ts';

const VARIABLE = 'CALLER_API_KEYS';
/** Names go on log lines, spans and a metrics label: short and plain. */
const NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Printable ASCII without space, `,` and `:` (the separators); long enough not to be guessed. */
const KEY = /^[!-+\--9;-~]{16,256}$/;
const ORG_ID = new RegExp(ID_PATTERN);

function parseEntry(text: string, position: number): CallerKeyEntry {
  const parts = text.split(':');
  const where = `entry ${position}`;
  if (parts.length < 2 || parts.length > 3) {
    throw new ConfigError(VARIABLE, `${where} must be name:key or name:key:orgId|orgId|...`);
  }
  const [name = '', key = '', orgList] = parts.map((p) => p.trim());
  if (!NAME.test(name)) throw new ConfigError(VARIABLE, `${where}: the name must be 1..64 of A-Z a-z 0-9 . _ -`);
  if (!KEY.test(key)) {
    throw new ConfigError(VARIABLE, `${where} ("${name}"): the key must be 16..256 printable ASCII characters without space, ',' or ':'`);
  }
  if (orgList === undefined) return { name, key, orgIds: undefined };
  const orgIds = orgList.split('|').map((o) => o.trim());
  if (orgIds.some((o) => !ORG_ID.test(o))) {
    throw new ConfigError(VARIABLE, `${where} ("${name}"): each orgId must be 19 digits or standard Base64, separated by |`);
  }
  return { name, key, orgIds };
}

/** The entries of CALLER_API_KEYS, or undefined when it is unset (no caller authentication). */
export function parseCallerKeys(env: Env): readonly CallerKeyEntry[] | undefined {
  const value = envOptionalString(env, VARIABLE);
  if (value === undefined) return undefined;
  const entries = value.split(',').map((text, i) => parseEntry(text.trim(), i + 1));
  entries.forEach((entry, i) => {
    const first = entries.findIndex((other) => other.key === entry.key);
    // Two names for one key would make the caller ambiguous; one name with two keys is a key rotation.
    if (first !== i) throw new ConfigError(VARIABLE, `entry ${i + 1} ("${entry.name}") repeats the key of entry ${first + 1}`);
  });
  return entries;
}
