/** CORS_ORIGINS, PUBLISHABLE_KEYS, HANDOFF_SIGNING_SECRET and HANDOFF_LEGACY_SIGNATURE at start-up (docs/configuration.md). */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError, type Env } from '../../src/config/env-parsers.ts';
import { loadConfig } from '../../src/config/load-config.ts';

const CONFIG_DIR = resolve(import.meta.dirname, '../../config');
const load = (env: Env) => loadConfig(env, CONFIG_DIR);

function problems(env: Env): string[] {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidConfigError);
    return (err as InvalidConfigError).problems.map((p) => p.message);
  }
  throw new Error('expected loadConfig to throw');
}

const whsec = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
const key = (over: Record<string, unknown> = {}) => ({
  name: 'widget', key: 'pk_test_0123456789abcdef', origins: ['https://www.example.com'], orgId: '9876543210987654321', propertyIds: ['1234567890123456789'], ...over,
});
const keys = (...entries: object[]) => JSON.stringify(entries);

describe('CORS_ORIGINS', () => {
  it('is `local` by default in local, none elsewhere; origins are kept as browsers send them', () => {
    expect(load({}).corsOrigins).toEqual({ local: true, origins: [] });
    expect(load({ ENVIRONMENT: 'qa', GRAPHQL_AUTHORIZATION: 'a', GRAPHQL_API_KEY: 'k' }).corsOrigins).toEqual({ local: false, origins: [] });
    expect(load({ CORS_ORIGINS: 'https://WWW.Example.com/, http://localhost:8080' }).corsOrigins).toEqual({
      local: false, origins: ['https://www.example.com', 'http://localhost:8080'],
    });
    expect(load({ CORS_ORIGINS: 'local,https://a.example:8443' }).corsOrigins).toEqual({ local: true, origins: ['https://a.example:8443'] });
  });

  it.each(['https://www.example.com/chat', '*', 'www.example.com', 'ftp://example.com', 'https://user:pw@example.com', 'https://example.com?x=1'])(
    'refuses %s with a message naming the variable',
    (value) => {
      expect(problems({ CORS_ORIGINS: value })).toEqual([expect.stringMatching(/^CORS_ORIGINS: entry 1 .* must be an origin/)]);
    },
  );
});

describe('PUBLISHABLE_KEYS', () => {
  it('reads each entry, origins normalised', () => {
    const config = load({ PUBLISHABLE_KEYS: keys(key({ origins: ['https://WWW.example.com/'] })) });
    expect(config.publishableKeys).toEqual([{ ...key(), origins: ['https://www.example.com'] }]);
    expect(load({}).publishableKeys).toBeUndefined();
  });

  it.each<[string, string, RegExp]>([
    ['not JSON', '[{', /must be a JSON array/],
    ['not an array', '{}', /must be a JSON array/],
    ['a key without pk_', keys(key({ key: 'sk_test_0123456789abcdef' })), /entry 1 \("widget"\): "key" must begin pk_/],
    ['a short key', keys(key({ key: 'pk_short' })), /"key" must begin pk_/],
    ['no origins', keys(key({ origins: [] })), /"origins" must be/],
    ['an origin with a path', keys(key({ origins: ['https://www.example.com/widget'] })), /"origins" must be/],
    ['a bad orgId', keys(key({ orgId: '12' })), /"orgId" must be/],
    ['no properties', keys(key({ propertyIds: [] })), /"propertyIds" must be/],
    ['an unknown member', keys(key()).replace('{', '{"__proto__":{"admin":true},'), /unknown member "__proto__"/],
    ['a repeated key', keys(key(), key({ name: 'other' })), /entry 2 \("other"\) repeats the key of entry 1/],
    ['a repeated name', keys(key(), key({ key: 'pk_test_fedcba9876543210' })), /repeats the name "widget"/],
  ])('refuses %s with a clear error that never shows the key', (_what, value, message) => {
    const found = problems({ PUBLISHABLE_KEYS: value });
    expect(found).toEqual([expect.stringMatching(message)]);
    expect(found[0]).toMatch(/^PUBLISHABLE_KEYS: /);
    expect(found[0]).not.toContain('0123456789abcdef');
  });

  it('keeps the kinds apart: no pk_ caller or admin key, no name shared with a caller key', () => {
    expect(problems({ CALLER_API_KEYS: 'web:pk_abcdefghijklmnopqrstu' })).toEqual([expect.stringMatching(/^CALLER_API_KEYS: entry 1: a key beginning pk_/)]);
    expect(problems({ ADMIN_API_KEY: 'pk_abcdefghijklmnopqrstu' })).toEqual([expect.stringMatching(/^ADMIN_API_KEY: must not begin pk_/)]);
    expect(problems({ PUBLISHABLE_KEYS: keys(key()), CALLER_API_KEYS: 'widget:secret-KEY-aaaaaaaaaaaaa' })).toEqual([
      expect.stringMatching(/^PUBLISHABLE_KEYS: the name "widget" is also a CALLER_API_KEYS name/),
    ]);
  });
});

describe('HANDOFF_SIGNING_SECRET and HANDOFF_LEGACY_SIGNATURE', () => {
  it('reads whsec_ secrets newest first; unsigned and no legacy header by default', () => {
    expect(load({}).handoffSigningSecrets).toEqual([]);
    expect(load({}).handoffLegacySignature).toBe(false);
    const config = load({ HANDOFF_SIGNING_SECRET: `${whsec(32)}, ${whsec(24)}`, HANDOFF_LEGACY_SIGNATURE: 'true' });
    expect(config.handoffSigningSecrets).toEqual([whsec(32), whsec(24)]);
    expect(config.handoffLegacySignature).toBe(true);
  });

  it.each<[string, string, RegExp]>([
    ['a secret without whsec_', 'a-plain-secret-of-the-old-kind-123', /entry 1 must be a Standard Webhooks secret/],
    ['a second entry that is malformed', `${whsec(32)},whsec_not base64!`, /entry 2: the part after whsec_ must be standard base64/],
    ['a secret too short', whsec(16), /entry 1: the secret must decode to 24\.\.64 bytes, got 16/],
    ['a secret too long', whsec(65), /must decode to 24\.\.64 bytes, got 65/],
    ['an empty entry', `${whsec(32)},`, /entry 2 must be a Standard Webhooks secret/],
  ])('refuses %s at start-up with a clear error that never shows the secret', (_what, value, message) => {
    const found = problems({ HANDOFF_SIGNING_SECRET: value });
    expect(found).toEqual([expect.stringMatching(message)]);
    expect(found[0]).toMatch(/^HANDOFF_SIGNING_SECRET: /);
    expect(found[0]).not.toContain('old-kind');
  });

  it('HANDOFF_LEGACY_SIGNATURE takes true or false only', () => {
    expect(problems({ HANDOFF_LEGACY_SIGNATURE: 'yes' })).toEqual([expect.stringMatching(/^HANDOFF_LEGACY_SIGNATURE: /)]);
  });
});
