/**
 * Concurrency ceilings (docs/api.md#fair-shares): how many chats one client, or one organisation,
 * may have in flight at once. A chat holds a lease on each of its counters from admission until
 * its work ends (answer sent, stream ended, or, for a caller that left, its turn completed); a
 * lease also expires by itself after `leaseMs`, so a lost release never shrinks a ceiling for good.
 */

/** Which ceiling a counter belongs to: its name is the 429's `detail`. */
export type CeilingName = 'client' | 'organisation';

/** One counter a chat is counted on. `id` is the client's or organisation's name (caller data: never a plain-object key). */
export interface CeilingCount {
  readonly ceiling: CeilingName;
  readonly id: string;
  /** Chats in flight allowed on it. */
  readonly max: number;
}

export type Admission =
  | { readonly admitted: true; readonly release: () => void }
  | { readonly admitted: false; readonly ceiling: CeilingName };

export interface ConcurrencyCeilings {
  /** Counts the chat on every counter, or on none: refused by the first full one (in the order given). */
  acquire(counts: readonly CeilingCount[]): Admission | Promise<Admission>;
}

/** A release that gives its lease back once, however often it is called. */
export function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}
