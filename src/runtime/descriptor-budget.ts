/**
 * Open files (docs/operations.md#open-files): every connection, to the service or from it to a
 * party, every file and the Redis connections take a descriptor, and a process that runs out
 * (`EMFILE`) fails in places that cannot recover (Node's own memory sampling throws). At start-up
 * MAX_CONNECTIONS and the parties' pools are compared with the process's soft open-files limit and
 * lowered, with a warning, so that all of them together fit under it with room to spare.
 */
import { readFileSync } from 'node:fs';

/** Descriptors kept for everything that is neither a client's nor a pool's connection: stdio, the event loop, files, Redis, a metrics listener. */
export const RESERVED_DESCRIPTORS = 64;
/** Parties whose pools a chat may use at once (engine, GraphQL, translate, property API; handoffs run beside them). */
const PARTY_POOLS = 5;

export interface DescriptorBudget {
  readonly maxConnections: number;
  readonly poolConnections: number;
  /** What was lowered, for the warning; empty when everything fits. */
  readonly lowered: readonly string[];
}

/**
 * The soft "Max open files" of this process from /proc/self/limits (Linux); undefined elsewhere,
 * or when it is unlimited or cannot be read.
 */
export function openFilesSoftLimit(readLimits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = readLimits();
  } catch {
    return undefined;
  }
  const line = text.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  return soft === undefined || !/^\d+$/.test(soft) ? undefined : Number(soft);
}

/**
 * The connection ceilings that fit under `softLimit`: unchanged when client connections, every
 * pool full and the reserve fit; otherwise half of what is left after the reserve for clients and
 * half for the pools (at most `poolConnections` each, at least one).
 */
export function descriptorBudget(softLimit: number | undefined, maxConnections: number, poolConnections: number): DescriptorBudget {
  if (softLimit === undefined || maxConnections + PARTY_POOLS * poolConnections + RESERVED_DESCRIPTORS <= softLimit) {
    return { maxConnections, poolConnections, lowered: [] };
  }
  const spare = Math.max(2, softLimit - RESERVED_DESCRIPTORS);
  const clients = Math.max(1, Math.min(maxConnections, Math.floor(spare / 2)));
  const pools = Math.max(1, Math.min(poolConnections, Math.floor((spare - clients) / PARTY_POOLS)));
  const lowered: string[] = [];
  if (clients < maxConnections) lowered.push(`MAX_CONNECTIONS ${maxConnections} -> ${clients}`);
  if (pools < poolConnections) lowered.push(`connections per party pool ${poolConnections} -> ${pools}`);
  return { maxConnections: clients, poolConnections: pools, lowered };
}
