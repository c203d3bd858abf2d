/**
 * Settings of docs/api.md#fair-shares and the prod safety checks of docs/configuration.md:
 * concurrency ceilings per client and per organisation, the share of a call's time it may wait for
 * a party's connection, where /metrics is served, and whether unsigned handoffs are allowed in prod.
 */
import type { Environment } from './environment.ts';
import { ConfigError, envBoolean, envInteger, envOptionalString, type Env } from './env-parsers.ts';

/**
 * Defaults sized from the engine pool (128 connections per instance, src/clients/party-pool.ts):
 * one client may hold a quarter of it, one organisation half, so at least two organisations and
 * four clients are served at the pool's full pace before any call waits for a connection.
 */
export const DEFAULT_CONCURRENCY_PER_CLIENT = 32;
export const DEFAULT_CONCURRENCY_PER_ORG = 64;
export const DEFAULT_PARTY_POOL_WAIT_PERCENT = 20;

export interface FairSharesConfig {
  /** CONCURRENCY_PER_CLIENT: chats in flight per client (caller key name, else peer address); 0 = off. */
  readonly perClient: number;
  /** CONCURRENCY_PER_ORG: chats in flight per organisation; 0 = off. */
  readonly perOrg: number;
  /** PARTY_POOL_WAIT_PERCENT / 100: the part of a call's time it may wait for a free connection. */
  readonly poolWaitShare: number;
}

export function readFairShares(env: Env): FairSharesConfig {
  return {
    perClient: envInteger(env, 'CONCURRENCY_PER_CLIENT', DEFAULT_CONCURRENCY_PER_CLIENT, 0, 1_000_000),
    perOrg: envInteger(env, 'CONCURRENCY_PER_ORG', DEFAULT_CONCURRENCY_PER_ORG, 0, 1_000_000),
    poolWaitShare: envInteger(env, 'PARTY_POOL_WAIT_PERCENT', DEFAULT_PARTY_POOL_WAIT_PERCENT, 1, 100) / 100,
  };
}

/** METRICS_PORT: /metrics is served only there (on HOST); undefined = on the service's own port. */
export function readMetricsPort(env: Env, port: number | undefined): number | undefined {
  if (envOptionalString(env, 'METRICS_PORT') === undefined) return undefined;
  const metricsPort = envInteger(env, 'METRICS_PORT', 0, 1, 65_535);
  if (metricsPort === port) throw new ConfigError('METRICS_PORT', 'must differ from PORT');
  return metricsPort;
}

/**
 * HANDOFF_UNSIGNED: in `prod` a handoff (a visitor's contact details) is never sent unsigned by
 * accident: without HANDOFF_SIGNING_SECRET the service does not start unless this is `true`.
 */
export function readHandoffUnsigned(env: Env, environment: Environment | undefined, hasSecret: boolean): boolean {
  const unsigned = envBoolean(env, 'HANDOFF_UNSIGNED', false);
  if (environment === 'prod' && !hasSecret && !unsigned) {
    throw new ConfigError('HANDOFF_SIGNING_SECRET', 'is required when ENVIRONMENT=prod (or set HANDOFF_UNSIGNED=true to deliver handoffs unsigned)');
  }
  return unsigned;
}
