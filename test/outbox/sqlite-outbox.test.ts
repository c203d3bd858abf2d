import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutboxUnavailableError } from '../../src/errors.ts';
import { createSqliteOutbox, type SqliteOutboxOptions } from '../../src/outbox/sqlite-outbox.ts';
import { silentOutboxEvents } from '../../src/outbox/outbox.ts';
import { describeOutboxContract, handoff, type StoreSetup } from './outbox-contract.ts';

function local(setup: StoreSetup, file: string, extra: Partial<SqliteOutboxOptions> = {}) {
  return createSqliteOutbox({ file, ...setup, pollIntervalMs: 20, claimMs: 1_000, ...extra });
}

describeOutboxContract('local (SQLite)', async (setup) => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-sqlite-'));
  const file = join(dir, 'handoff-outbox.sqlite');
  const opened = [local(setup, file)];
  return {
    outbox: opened[0]!,
    another() {
      const next = local(setup, file);
      opened.push(next);
      return next;
    },
    async dispose() {
      for (const outbox of opened) {
        await outbox.stop(0);
        await outbox.close();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const quiet: StoreSetup = {
  deliver: async () => ({ result: 'delivered' }),
  policy: { backoff: { baseMs: 20, capMs: 100 }, maxAgeMs: 60_000 },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  events: silentOutboxEvents,
};

describe('local (SQLite) outbox', () => {
  it('cannot be written where DATA_DIR is not a directory: enqueue rejects, ready() is false', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sqlite-'));
    const notADir = join(dir, 'file');
    writeFileSync(notADir, 'x');
    const outbox = local(quiet, join(notADir, 'handoff-outbox.sqlite'));
    try {
      await expect(outbox.enqueue(handoff())).rejects.toBeInstanceOf(OutboxUnavailableError);
      expect(await outbox.ready()).toBe(false);
    } finally {
      await outbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the payload only until delivery: a delivered row holds no message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sqlite-'));
    const file = join(dir, 'handoff-outbox.sqlite');
    const outbox = local(quiet, file);
    try {
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await outbox.stop(1_000);
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(file, { readOnly: true });
      expect(db.prepare('SELECT status, payload FROM handoff_outbox WHERE id = ?').get(h.handoff_id)).toEqual({ status: 'delivered', payload: null });
      db.close();
    } finally {
      await outbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes its file in WAL mode (issue 10: crash-safe without an fsync per handoff)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sqlite-'));
    const file = join(dir, 'handoff-outbox.sqlite');
    const outbox = local(quiet, file);
    try {
      await outbox.enqueue(handoff());
      const { DatabaseSync } = await import('node:sqlite');
      // The journal mode is kept in the file itself: any later opener sees it.
      const db = new DatabaseSync(file);
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      db.close();
    } finally {
      await outbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
