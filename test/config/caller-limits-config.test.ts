import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError, type ConfigError, type Env } from '../../src/config/env-parsers.ts';
import { loadConfig } from '../../src/config/load-config.ts';

const CONFIG_DIR = resolve(import.meta.dirname, '../../config');
const KEY_A = 'web-key-0123456789abcdef';
const KEY_B = 'partner_KEY+/=~!0123456789';
const ORG_A = '9876543210987654321';
const ORG_B = 'T3JnOjc=';

const load = (env: Env) => loadConfig(env, CONFIG_DIR);

/** The one problem loadConfig reports (every bad variable is listed; these tests set one). */
function failure(env: Env): ConfigError {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidConfigError);
    const { problems } = err as InvalidConfigError;
    expect(problems).toHaveLength(1);
    return problems[0]!;
  }
  throw new Error('expected loadConfig to throw');
}

describe('CALLER_API_KEYS (docs/api.md#caller-keys)', () => {
  it('is off when unset or blank', () => {
    expect(load({}).callerKeys).toBeUndefined();
    expect(load({ CALLER_API_KEYS: '  ' }).callerKeys).toBeUndefined();
  });

  it('reads name:key (any organisation) and name:key:orgId|orgId entries', () => {
    const keys = load({ CALLER_API_KEYS: ` web:${KEY_A} , partner:${KEY_B}:${ORG_A}|${ORG_B}` }).callerKeys;
    expect(keys).toEqual([
      { name: 'web', key: KEY_A, orgIds: undefined },
      { name: 'partner', key: KEY_B, orgIds: [ORG_A, ORG_B] },
    ]);
  });

  it('accepts one name with two keys (a key rotation)', () => {
    expect(load({ CALLER_API_KEYS: `web:${KEY_A},web:${KEY_B}` }).callerKeys?.map((k) => k.name)).toEqual(['web', 'web']);
  });

  it.each([
    ['a missing key', `web`, 'entry 1 must be name:key'],
    ['too many parts', `web:${KEY_A}:${ORG_A}:x`, 'entry 1 must be name:key'],
    ['an empty entry', `web:${KEY_A},`, 'entry 2 must be name:key'],
    ['a bad name', `web site:${KEY_A}`, 'entry 1: the name must be'],
    ['a short key', `web:short-${KEY_A.slice(0, 5)}`, 'entry 1 ("web"): the key must be 16..256'],
    ['a key with a space', `web:${KEY_A} ${KEY_B}`, 'entry 1 ("web"): the key must be'],
    ['a bad orgId', `web:${KEY_A}:${ORG_A}|not-an-id`, 'entry 1 ("web"): each orgId must be'],
    ['an empty org list', `web:${KEY_A}:`, 'entry 1 ("web"): each orgId must be'],
    ['a repeated key', `web:${KEY_A},app:${KEY_A}`, 'entry 2 ("app") repeats the key of entry 1'],
  ])('refuses %s, naming CALLER_API_KEYS and never the key', (_what, value, message) => {
    const err = failure({ CALLER_API_KEYS: value });
    expect(err.variable).toBe('CALLER_API_KEYS');
    expect(err.message).toContain(`CALLER_API_KEYS: ${message}`);
    for (const key of [KEY_A, KEY_B, `short-${KEY_A.slice(0, 5)}`]) expect(err.message).not.toContain(key);
  });
});

describe('OVERLOAD_MAX_EVENT_LOOP_DELAY_MS (docs/api.md#overload-and-input-depth)', () => {
  it('defaults to 1 s and may be turned off', () => {
    expect(load({}).overloadMaxEventLoopDelayMs).toBe(1000);
    expect(load({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' }).overloadMaxEventLoopDelayMs).toBe(0);
    expect(failure({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '1s' }).variable).toBe('OVERLOAD_MAX_EVENT_LOOP_DELAY_MS');
  });
});

describe('RATE_LIMIT_SESSION_PER_MIN, RATE_LIMIT_CLIENT_PER_MIN and RATE_LIMIT_ORG_PER_MIN (docs/api.md#rate-limits)', () => {
  it('default to 30 per session, no client and no organisation limit', () => {
    const config = load({});
    expect(config.rateLimitSessionPerMin).toBe(30);
    expect(config.rateLimitClientPerMin).toBe(0);
    expect(config.rateLimitOrgPerMin).toBe(0);
  });

  it('are read, 0 included', () => {
    const config = load({ RATE_LIMIT_SESSION_PER_MIN: '0', RATE_LIMIT_ORG_PER_MIN: '600', RATE_LIMIT_CLIENT_PER_MIN: '120' });
    expect(config.rateLimitSessionPerMin).toBe(0);
    expect(config.rateLimitOrgPerMin).toBe(600);
    expect(config.rateLimitClientPerMin).toBe(120);
  });

  it.each(['RATE_LIMIT_SESSION_PER_MIN', 'RATE_LIMIT_ORG_PER_MIN', 'RATE_LIMIT_CLIENT_PER_MIN'])('%s must be a whole number', (variable) => {
    expect(failure({ [variable]: '-1' }).variable).toBe(variable);
    expect(failure({ [variable]: '2.5' }).variable).toBe(variable);
  });
});
