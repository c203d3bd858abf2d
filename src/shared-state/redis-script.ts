/**
 * A Lua script on a Redis connection (single node, Sentinel or Cluster), for the few operations
 * that must read and write atomically. ioredis sends it by its SHA (EVALSHA) and sends the script
 * itself when Redis answers NOSCRIPT (a restart, a failover, a cluster node that never saw it).
 * Every key the script touches is passed in KEYS, so a cluster routes it to the slot's owner.
 *
 * With telemetry, each call is timed for the Redis latency histogram and, under a sampled chat's
 * span, gets a CLIENT span of its own (src/telemetry/fast/redis-span.ts); without, it is the bare command.
 */
import { performance } from 'node:perf_hooks';
import type { Tracer } from '@opentelemetry/api';
import type { Cluster, Redis } from 'ioredis';
import { endRedisSpan, startRedisSpan, type RedisCallName, type RedisServerAddress, type RedisSpanTarget } from '../telemetry/fast/redis-span.ts';

export type RedisScript = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

/** Told of every call of a script: its name, seconds from send to reply, and whether Redis answered. */
export type ScriptObserver = (script: string, seconds: number, ok: boolean) => void;

/** Where a script call is reported: the latency histogram, and spans under a chat's sampled span. */
export interface ScriptTelemetry {
  readonly observe?: ScriptObserver | undefined;
  readonly tracer?: Tracer | undefined;
  /** The Redis server as configured (server.address, server.port on the spans). */
  readonly server?: RedisServerAddress | undefined;
}

/** Either form a caller has: the histogram's observer alone, or the whole telemetry. */
export type ScriptReporting = ScriptObserver | ScriptTelemetry;

/** The connected node's address, for a client with one connection (not a Cluster's many). */
function peerOf(client: Redis | Cluster): RedisSpanTarget['peer'] {
  if (client.isCluster) return undefined;
  return () => {
    const stream = (client as Redis).stream as { remoteAddress?: string; remotePort?: number } | undefined;
    return stream === undefined ? undefined : { address: stream.remoteAddress, port: stream.remotePort };
  };
}

/**
 * Sends one call and reports it. `failureOf` finds an error inside a reply that did not throw (a
 * pipeline's own replies): the call then counts as failed.
 */
export type ReportedCall = <T>(call: RedisCallName, send: () => Promise<T>, failureOf?: (reply: T) => unknown) => Promise<T>;

/**
 * Times one Redis call (a script, or a pipeline carrying one) for the histogram and its span.
 * Returned as a function of the call, so a caller with a call of its own (a pipeline) reports the same way.
 */
export function reportedRedisCall(client: Redis | Cluster, reporting: ScriptReporting | undefined): ReportedCall | undefined {
  if (reporting === undefined) return undefined;
  const telemetry: ScriptTelemetry = typeof reporting === 'function' ? { observe: reporting } : reporting;
  const { observe, tracer } = telemetry;
  if (observe === undefined && tracer === undefined) return undefined;
  const target: RedisSpanTarget | undefined = tracer === undefined ? undefined : { tracer, server: telemetry.server, peer: peerOf(client) };
  return async (call, send, failureOf) => {
    const span = startRedisSpan(target, call);
    const started = performance.now();
    let reply;
    try {
      reply = await send();
    } catch (err) {
      observe?.(call.script, (performance.now() - started) / 1000, false);
      endRedisSpan(span, err);
      throw err;
    }
    const failure = failureOf?.(reply);
    observe?.(call.script, (performance.now() - started) / 1000, failure === undefined);
    endRedisSpan(span, failure);
    return reply;
  };
}

export function redisScript(client: Redis | Cluster, name: string, numberOfKeys: number, lua: string, reporting?: ScriptReporting): RedisScript {
  client.defineCommand(name, { numberOfKeys, lua });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`redis script ${name} was not defined`);
  const call = (keys: readonly string[], args: readonly (string | number)[]) => {
    if (keys.length !== numberOfKeys) throw new Error(`redis script ${name} takes ${numberOfKeys} keys, got ${keys.length}`);
    return command.call(client, ...keys, ...args);
  };
  const reported = reportedRedisCall(client, reporting);
  if (reported === undefined) return call;
  const what: RedisCallName = { operation: 'EVALSHA', script: name };
  return (keys, args) => reported(what, () => call(keys, args));
}
