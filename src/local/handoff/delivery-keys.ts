import type { DatabaseSync } from 'node:sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS handoff_delivery_keys (
  idempotency_key TEXT PRIMARY KEY,
  handoff_id TEXT NOT NULL,
  received_at TEXT NOT NULL
) STRICT;
`;

export interface Recorded {
  readonly id: string;
  readonly duplicate: boolean;
}

/** Idempotency-Key -> the handoff it recorded, kept in the local store's SQLite file. */
export interface DeliveryKeys {
  /** Runs `record` for a key not seen before; a key seen before answers what it recorded then. */
  once(key: string | undefined, record: () => Recorded): Recorded;
}

/**
 * The receiver's side of docs/operations.md#handoffs-and-dead-letters: the outbox sends every attempt of a handoff with the same
 * `Idempotency-Key`, so a re-delivery (after a timeout, a lost answer, a stalled job) is recorded
 * once. Look-up, record and remember run synchronously (node:sqlite), so nothing interleaves them.
 */
export function createDeliveryKeys(db: DatabaseSync, now: () => Date = () => new Date()): DeliveryKeys {
  db.exec(SCHEMA);
  const find = db.prepare('SELECT handoff_id FROM handoff_delivery_keys WHERE idempotency_key = ?');
  const remember = db.prepare('INSERT OR IGNORE INTO handoff_delivery_keys (idempotency_key, handoff_id, received_at) VALUES (?, ?, ?)');
  return {
    once(key, record) {
      if (key === undefined) return record();
      const seen = find.get(key) as { handoff_id: string } | undefined;
      if (seen !== undefined) return { id: seen.handoff_id, duplicate: true };
      const recorded = record();
      remember.run(key, recorded.id, now().toISOString());
      return recorded;
    },
  };
}
