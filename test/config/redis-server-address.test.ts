/**
 * The Redis address a chat's Redis spans name (`server.address`, `server.port`: the address the
 * configuration names, docs/observability.md#traces): REDIS_URL's host and port without its
 * credentials, or the first Sentinel or Cluster seed node listed.
 */
import { describe, expect, it } from 'vitest';
import { configuredRedisServer, readRedisTarget } from '../../src/config/redis-target.ts';

const serverOf = (env: Record<string, string>) => configuredRedisServer(readRedisTarget(env)!);

describe('the configured Redis address of the spans', () => {
  it("is REDIS_URL's host and port, never its user or password", () => {
    expect(serverOf({ REDIS_URL: 'redis://app:s3cret@redis.internal:6380/0' })).toEqual({ host: 'redis.internal', port: 6380 });
    expect(serverOf({ REDIS_URL: 'rediss://redis.example.com' })).toEqual({ host: 'redis.example.com', port: 6379 });
    expect(serverOf({ REDIS_URL: 'redis://[::1]:7000' })).toEqual({ host: '::1', port: 7000 });
  });

  it('is the first Sentinel, or the first Cluster seed node, as listed', () => {
    expect(serverOf({ REDIS_SENTINELS: 'sentinel-0:26379,sentinel-1:26379', REDIS_SENTINEL_NAME: 'mymaster' })).toEqual({ host: 'sentinel-0', port: 26379 });
    expect(serverOf({ REDIS_CLUSTER_NODES: '10.0.0.1:7001,10.0.0.2:7002' })).toEqual({ host: '10.0.0.1', port: 7001 });
  });
});
