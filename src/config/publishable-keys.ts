/**
 * PUBLISHABLE_KEYS (docs/browser-widgets.md#publishable-keys): keys meant to sit in browser code, a
 * JSON array of `{"name", "key", "origins": [...], "orgId", "propertyIds": [...]}`. Each key begins
 * `pk_`, is accepted only from its origins, and chats only for its organisation and properties. A
 * bad entry stops start-up with a message naming the entry's position (and name), never the key.
 */
import { ID_PATTERN } from '../../schemas/chat-request.schema.ts';
import type { PublishableKeyEntry } from './config.schema.ts';
import { normaliseOrigin } from './cors-origins.ts';
import { ConfigError, envOptionalString, type Env } from './env-parsers.ts';

const VARIABLE = 'PUBLISHABLE_KEYS';
export const PUBLISHABLE_KEY_PREFIX = 'pk_';
const NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** pk_ and 16..200 URL-safe characters: fits a header and a script tag, long enough not to be guessed. */
const KEY = /^pk_[A-Za-z0-9_-]{16,200}$/;
const ID = new RegExp(ID_PATTERN);
const MEMBERS: ReadonlySet<string> = new Set(['name', 'key', 'origins', 'orgId', 'propertyIds']);
const MAX_KEYS = 1_000;
const MAX_ORIGINS = 100;
const MAX_PROPERTIES = 10_000;

function stringList(value: unknown, max: number): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > max) return undefined;
  return value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

function parseEntry(value: unknown, position: number): PublishableKeyEntry {
  const where = `entry ${position}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(VARIABLE, `${where} must be an object`);
  const unknown = Object.keys(value).find((member) => !MEMBERS.has(member));
  if (unknown !== undefined) throw new ConfigError(VARIABLE, `${where} has an unknown member "${unknown.slice(0, 40)}"`);
  const { name, key, origins, orgId, propertyIds } = value as Record<string, unknown>;
  if (typeof name !== 'string' || !NAME.test(name)) throw new ConfigError(VARIABLE, `${where}: "name" must be 1..64 of A-Z a-z 0-9 . _ -`);
  const named = `${where} ("${name}")`;
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw new ConfigError(VARIABLE, `${named}: "key" must begin pk_ and go on with 16..200 of A-Z a-z 0-9 _ -`);
  }
  const originList = stringList(origins, MAX_ORIGINS)?.map(normaliseOrigin);
  if (originList === undefined || originList.some((o) => o === undefined)) {
    throw new ConfigError(VARIABLE, `${named}: "origins" must be 1..${MAX_ORIGINS} origins such as https://www.example.com (no path)`);
  }
  if (typeof orgId !== 'string' || !ID.test(orgId)) throw new ConfigError(VARIABLE, `${named}: "orgId" must be 19 digits or standard Base64`);
  const properties = stringList(propertyIds, MAX_PROPERTIES);
  if (properties === undefined || properties.some((p) => !ID.test(p))) {
    throw new ConfigError(VARIABLE, `${named}: "propertyIds" must be 1..${MAX_PROPERTIES} ids, each 19 digits or standard Base64`);
  }
  return { name, key, origins: originList as string[], orgId, propertyIds: properties };
}

/** The entries of PUBLISHABLE_KEYS; undefined when it is unset. */
export function parsePublishableKeys(env: Env): readonly PublishableKeyEntry[] | undefined {
  const value = envOptionalString(env, VARIABLE);
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError(VARIABLE, 'must be a JSON array of {"name", "key", "origins", "orgId", "propertyIds"} objects');
  }
  if (!Array.isArray(parsed) || parsed.length > MAX_KEYS) throw new ConfigError(VARIABLE, `must be a JSON array of at most ${MAX_KEYS} keys`);
  const entries = parsed.map((entry, i) => parseEntry(entry, i + 1));
  const keys = new Map<string, number>();
  const names = new Map<string, number>();
  entries.forEach((entry, i) => {
    const sameKey = keys.get(entry.key);
    if (sameKey !== undefined) throw new ConfigError(VARIABLE, `entry ${i + 1} ("${entry.name}") repeats the key of entry ${sameKey}`);
    // The name is the client of rate limits and logs: two keys under one name would share them.
    const sameName = names.get(entry.name);
    if (sameName !== undefined) throw new ConfigError(VARIABLE, `entry ${i + 1} repeats the name "${entry.name}" of entry ${sameName}`);
    keys.set(entry.key, i + 1);
    names.set(entry.name, i + 1);
  });
  return entries;
}

/**
 * The checks across variables: a publishable key is never a secret key (CALLER_API_KEYS, ADMIN_API_KEY
 * never begin pk_), and its name is not a caller key's (the two would share one client's limits).
 */
export function checkKeyKinds(
  publishable: readonly PublishableKeyEntry[] | undefined,
  callerKeys: readonly { readonly name: string; readonly key: string }[] | undefined,
  adminApiKey: string | undefined,
): void {
  if (adminApiKey?.startsWith(PUBLISHABLE_KEY_PREFIX) === true) {
    throw new ConfigError('ADMIN_API_KEY', 'must not begin pk_ (the prefix of publishable keys, which are never valid for /admin)');
  }
  const callerIndex = callerKeys?.findIndex((entry) => entry.key.startsWith(PUBLISHABLE_KEY_PREFIX)) ?? -1;
  if (callerIndex !== -1) {
    throw new ConfigError('CALLER_API_KEYS', `entry ${callerIndex + 1}: a key beginning pk_ is a publishable key: put it in PUBLISHABLE_KEYS`);
  }
  const callerNames = new Set(callerKeys?.map((entry) => entry.name));
  const clash = publishable?.find((entry) => callerNames.has(entry.name));
  if (clash !== undefined) throw new ConfigError(VARIABLE, `the name "${clash.name}" is also a CALLER_API_KEYS name: give each client its own`);
}
