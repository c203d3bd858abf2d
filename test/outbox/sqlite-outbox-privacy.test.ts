/**
 * docs/operations.md#handoffs-and-dead-letters / issue 23: the local outbox's files hold visitors' contact details only while a
 * handoff waits. On a real SQLite file, read byte for byte while the outbox is still open (as in a
 * running service): after delivery neither the database nor its write-ahead log holds the phone;
 * the files are private to the service's user; dead letters expire.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteOutbox, type SqliteOutboxOptions } from '../../src/outbox/sqlite-outbox.ts';
import { silentOutboxEvents, type Outbox } from '../../src/outbox/outbox.ts';
import { handoff, type StoreSetup } from './outbox-contract.ts';

const PHONE = '+14155550134';
const quiet: StoreSetup = {
  deliver: async () => ({ result: 'delivered' }),
  policy: { backoff: { baseMs: 20, capMs: 100 }, maxAgeMs: 60_000 },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  events: silentOutboxEvents,
};

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function openOutbox(file: string, extra: Partial<SqliteOutboxOptions> = {}): Outbox {
  const outbox = createSqliteOutbox({ file, ...quiet, pollIntervalMs: 20, claimMs: 1_000, ...extra });
  cleanup.push(async () => {
    await outbox.stop(0);
    await outbox.close();
  });
  return outbox;
}

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-privacy-'));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Whether any of the outbox's files holds the text, in its raw bytes. */
function filesHold(file: string, text: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`].filter((path) => existsSync(path) && readFileSync(path).includes(Buffer.from(text)));
}

async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await sleep(20);
  }
}

describe('local outbox privacy', () => {
  it('leaves no contact detail in the database or its write-ahead log once the handoff is delivered', async () => {
    const file = join(freshDir(), 'handoff-outbox.sqlite');
    const outbox = openOutbox(file);
    const h = handoff();
    await outbox.enqueue(h);
    // While it waits, the phone is in the files (the search works).
    expect(filesHold(file, PHONE).length).toBeGreaterThan(0);
    outbox.start();
    await until(async () => (await outbox.counts())[0]!.pending === 0 && (await outbox.counts())[0]!.delivering === 0);
    await outbox.stop(1_000);
    for (const text of [PHONE, 'Dana Whitfield', 'dana@example.com']) expect(filesHold(file, text), text).toEqual([]);
  });

  it('creates DATA_DIR 0700 and the database, -wal and -shm files 0600, and narrows files left 0644', async () => {
    const dataDir = join(freshDir(), 'data');
    const file = join(dataDir, 'handoff-outbox.sqlite');
    const first = openOutbox(file);
    await first.enqueue(handoff());
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(path).mode & 0o777, path).toBe(0o600);
    await first.close();
    chmodSync(file, 0o644);
    const again = openOutbox(file);
    await again.enqueue(handoff());
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(path).mode & 0o777, path).toBe(0o600);
  });

  it('deletes a dead letter, with its contact details, once HANDOFF_DEAD_LETTER_TTL_S has passed', async () => {
    const file = join(freshDir(), 'handoff-outbox.sqlite');
    let clock = Date.now();
    const ttlMs = 30 * 86_400_000;
    const outbox = openOutbox(file, { deliver: async () => ({ result: 'permanent', reason: 'HTTP 400' }), now: () => clock, deadLetterTtlMs: ttlMs });
    const h = handoff();
    await outbox.enqueue(h);
    outbox.start();
    await until(async () => (await outbox.counts())[0]!.dead === 1);
    expect((await outbox.list('dead')).map((e) => e.handoff_id)).toEqual([h.handoff_id]);
    // Still kept a day before the TTL ends: an operator can retry it.
    clock += ttlMs - 86_400_000;
    await sleep(200);
    expect((await outbox.counts())[0]!.dead).toBe(1);
    clock += 2 * 86_400_000;
    await until(async () => (await outbox.counts())[0]!.dead === 0);
    await outbox.stop(1_000);
    expect(filesHold(file, PHONE)).toEqual([]);
  });
});
