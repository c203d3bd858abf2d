/**
 * Which Redis the configuration points at (docs/configuration.md#shared-state-and-the-handoff-outbox, docs/operations.md#redis-topologies):
 * one node, Sentinel or Cluster, with their credentials, TLS and replica acknowledgements, and a
 * clear start-up error for every setting that does not fit together.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, InvalidConfigError, type Env } from '../../src/config/env-parsers.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { parseNodeList, readRedisTarget } from '../../src/config/redis-target.ts';

const CONFIG_DIR = resolve(import.meta.dirname, '../../config');
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** The one problem (variable and message) reading `env` stops with. */
function problem(env: Env): ConfigError {
  try {
    readRedisTarget(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

function caFile(content = PEM): string {
  const file = join(mkdtempSync(join(tmpdir(), 'redis-ca-')), 'ca.pem');
  writeFileSync(file, content);
  return file;
}

describe('the Redis topology', () => {
  it('is none without any of the three variables: all shared state in process', () => {
    expect(readRedisTarget({})).toBeUndefined();
    expect(loadConfig({}, CONFIG_DIR).redis).toBeUndefined();
  });

  it('a single node from REDIS_URL: credentials in the URL or beside it, no replica waited for', () => {
    expect(readRedisTarget({ REDIS_URL: 'redis://:s3cret@10.0.0.5:6380/2' })).toEqual({
      kind: 'single', url: 'redis://:s3cret@10.0.0.5:6380/2', username: undefined, password: undefined, tls: undefined,
      wait: { replicas: 0, timeoutMs: 50 },
    });
    expect(readRedisTarget({ REDIS_URL: 'redis://10.0.0.5', REDIS_USERNAME: 'chat', REDIS_PASSWORD: 'pw' })).toMatchObject({ username: 'chat', password: 'pw' });
  });

  it('TLS from a rediss: URL or REDIS_TLS=true, with the CA of REDIS_TLS_CA_FILE', () => {
    expect(readRedisTarget({ REDIS_URL: 'rediss://cache.example:6380' })).toMatchObject({ tls: { ca: undefined } });
    expect(readRedisTarget({ REDIS_URL: 'redis://cache.example', REDIS_TLS: 'true', REDIS_TLS_CA_FILE: caFile() })).toMatchObject({ tls: { ca: PEM } });
  });

  it('Sentinel from REDIS_SENTINELS and REDIS_SENTINEL_NAME, waiting for one replica by default', () => {
    expect(readRedisTarget({
      REDIS_SENTINELS: 's1:26379, s2:26380,[fd00::3]', REDIS_SENTINEL_NAME: 'chat', REDIS_PASSWORD: 'pw', REDIS_SENTINEL_PASSWORD: 'spw', REDIS_TLS: 'true',
    })).toEqual({
      kind: 'sentinel',
      sentinels: [{ host: 's1', port: 26379 }, { host: 's2', port: 26380 }, { host: 'fd00::3', port: 26379 }],
      name: 'chat', username: undefined, password: 'pw', sentinelPassword: 'spw', tls: { ca: undefined },
      wait: { replicas: 1, timeoutMs: 50 },
    });
  });

  it('Cluster from REDIS_CLUSTER_NODES seeds, waiting for one replica by default, both settable', () => {
    expect(readRedisTarget({ REDIS_CLUSTER_NODES: 'n1:7000,n2', REDIS_USERNAME: 'chat', REDIS_PASSWORD: 'pw', REDIS_WAIT_REPLICAS: '2', REDIS_WAIT_TIMEOUT_MS: '100' })).toEqual({
      kind: 'cluster', nodes: [{ host: 'n1', port: 7000 }, { host: 'n2', port: 6379 }], username: 'chat', password: 'pw', tls: undefined,
      wait: { replicas: 2, timeoutMs: 100 },
    });
    expect(readRedisTarget({ REDIS_CLUSTER_NODES: 'n1:7000', REDIS_WAIT_REPLICAS: '0' })).toMatchObject({ wait: { replicas: 0 } });
  });

  it('refuses two topologies at once, naming both', () => {
    const both = problem({ REDIS_URL: 'redis://a', REDIS_CLUSTER_NODES: 'b:7000' });
    expect(both.variable).toBe('REDIS_CLUSTER_NODES');
    expect(both.message).toContain('REDIS_URL');
    expect(problem({ REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'm', REDIS_CLUSTER_NODES: 'b' }).variable).toBe('REDIS_CLUSTER_NODES');
  });

  it('refuses settings that would be ignored, naming the variable', () => {
    expect(problem({ REDIS_SENTINELS: 's:26379' }).variable).toBe('REDIS_SENTINEL_NAME');
    expect(problem({ REDIS_URL: 'redis://a', REDIS_SENTINEL_NAME: 'm' }).variable).toBe('REDIS_SENTINEL_NAME');
    expect(problem({ REDIS_CLUSTER_NODES: 'a', REDIS_SENTINEL_PASSWORD: 'x' }).variable).toBe('REDIS_SENTINEL_PASSWORD');
    expect(problem({ REDIS_PASSWORD: 'pw' }).variable).toBe('REDIS_PASSWORD');
    expect(problem({ REDIS_WAIT_REPLICAS: '1' }).variable).toBe('REDIS_WAIT_REPLICAS');
    expect(problem({ REDIS_URL: 'redis://a', REDIS_TLS_CA_FILE: caFile() }).variable).toBe('REDIS_TLS_CA_FILE');
    expect(problem({ REDIS_URL: 'rediss://a', REDIS_TLS: 'false' }).variable).toBe('REDIS_TLS');
  });

  it('refuses a password in two places without echoing either', () => {
    const twice = problem({ REDIS_URL: 'redis://:in-url-secret@a', REDIS_PASSWORD: 'beside-secret' });
    expect(twice.variable).toBe('REDIS_PASSWORD');
    expect(twice.message).not.toMatch(/in-url-secret|beside-secret/);
    expect(problem({ REDIS_URL: 'redis://me@a', REDIS_USERNAME: 'you' }).variable).toBe('REDIS_USERNAME');
  });

  it('refuses a bad URL, node list, CA file or WAIT setting, without echoing the URL', () => {
    const url = problem({ REDIS_URL: 'http://user:topsecret@a' });
    expect(url.variable).toBe('REDIS_URL');
    expect(url.message).not.toContain('topsecret');
    expect(problem({ REDIS_CLUSTER_NODES: 'a:70000' }).variable).toBe('REDIS_CLUSTER_NODES');
    expect(problem({ REDIS_CLUSTER_NODES: ' , ' }).variable).toBe('REDIS_CLUSTER_NODES');
    expect(problem({ REDIS_SENTINELS: 'a b:1', REDIS_SENTINEL_NAME: 'm' }).variable).toBe('REDIS_SENTINELS');
    expect(problem({ REDIS_URL: 'redis://a', REDIS_TLS: 'true', REDIS_TLS_CA_FILE: '/nonexistent/ca.pem' }).variable).toBe('REDIS_TLS_CA_FILE');
    expect(problem({ REDIS_URL: 'redis://a', REDIS_TLS: 'true', REDIS_TLS_CA_FILE: caFile('not a certificate') }).variable).toBe('REDIS_TLS_CA_FILE');
    // WAIT 0 would block until the replicas answer; past 150 ms it outlives the command timeout.
    expect(problem({ REDIS_CLUSTER_NODES: 'a', REDIS_WAIT_TIMEOUT_MS: '0' }).variable).toBe('REDIS_WAIT_TIMEOUT_MS');
    expect(problem({ REDIS_CLUSTER_NODES: 'a', REDIS_WAIT_TIMEOUT_MS: '151' }).variable).toBe('REDIS_WAIT_TIMEOUT_MS');
  });

  it('lists every Redis problem at start-up together with the others', () => {
    let caught: unknown;
    try {
      loadConfig({ REDIS_URL: 'redis://a', REDIS_SENTINELS: 's', PORT: 'x' }, CONFIG_DIR);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidConfigError);
    expect((caught as InvalidConfigError).problems.map((p) => p.variable).sort()).toEqual(['PORT', 'REDIS_SENTINELS']);
  });
});

describe('parseNodeList', () => {
  const host = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}(\.[a-z0-9-]{1,10}){0,3}$/);
  const port = fc.integer({ min: 1, max: 65_535 });

  it('reads back any list of host:port, whatever the spaces around entries', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ host, port }), { minLength: 1, maxLength: 8 }), fc.constantFrom('', ' ', '  '), (nodes, pad) => {
        const text = nodes.map((n) => `${pad}${n.host}:${n.port}${pad}`).join(',');
        expect(parseNodeList('REDIS_CLUSTER_NODES', text, 6379)).toEqual(nodes);
      }),
    );
  });

  it('refuses any entry with a character a host name cannot hold, naming the variable', () => {
    fc.assert(
      fc.property(host, fc.constantFrom(' ', '/', '@', '?', '#', '\n', '$'), (name, bad) => {
        expect(() => parseNodeList('REDIS_SENTINELS', `${name}${bad}x:1`, 26379)).toThrow(/^REDIS_SENTINELS: /);
      }),
    );
  });
});
