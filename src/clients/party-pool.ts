import { Pool } from 'undici';

/** Connections of each party's pool: also the calls in flight its slots let through (party-slots.ts). */
export const POOL_CONNECTIONS = 128;

/**
 * One keep-alive connection pool per party, for its origin (closed on shutdown). A Pool is called
 * with a path, so no per-call URL parsing or origin lookup as through an Agent.
 */
export function createPartyPool(baseUrl: string, connections = POOL_CONNECTIONS): Pool {
  return new Pool(new URL(baseUrl).origin, { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections, pipelining: 1 });
}

/** A configured base address split once: its origin and its own path (no trailing slash). */
export interface PartyAddress {
  readonly origin: string;
  readonly basePath: string;
}

const addresses = new Map<string, PartyAddress>();

/** Parsed once per configured base address (a handful per process). */
export function partyAddress(baseUrl: string): PartyAddress {
  let address = addresses.get(baseUrl);
  if (address === undefined) {
    const url = new URL(baseUrl);
    address = { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
    addresses.set(baseUrl, address);
  }
  return address;
}
