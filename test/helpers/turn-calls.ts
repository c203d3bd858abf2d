/**
 * The turn calls tests make one at a time, through the same entry points a chat uses (the start
 * script, the poll, the start of a turn), so no part of the queue exists for tests alone.
 */
import type { SessionTurn, SessionTurns } from '../../src/turns/session-turns.ts';
import { turnQueueKeys, type PollResult, type RedisTurnQueue } from '../../src/turns/redis-turn-queue.ts';
import { SESSION_KEY_PREFIX } from '../../src/cache/redis-session-data.ts';
import { sessionNameOf, type SessionOf } from '../../src/pipeline/session-key.ts';

/** Joins the queue as a chat without limits, key or session read does; true at the head. */
export async function enter(queue: RedisTurnQueue, session: string, token: string, leaseMs: number): Promise<boolean> {
  return (await queue.begin(session, token, leaseMs, undefined, false)).state === 'head';
}

/** Where the entry stands, without reading the session. */
export async function poll(queue: RedisTurnQueue, session: string, token: string): Promise<PollResult> {
  return (await queue.poll(session, token, false)).state;
}

/** The turn of a chat with no limits or key, or undefined when the deadline passed first. */
export async function acquire(turns: SessionTurns, session: string, deadlineAt: number): Promise<SessionTurn | undefined> {
  const outcome = await turns.begin(session, deadlineAt, {});
  return outcome.kind === 'turn' ? outcome.turn : undefined;
}

/** Every turn-queue key in Redis (a session's `turns`, `leases` and `tickets`), whatever the session. */
export async function turnQueueKeysIn(raw: { keys(pattern: string): Promise<string[]> }): Promise<string[]> {
  const found = await Promise.all(['turns', 'leases', 'tickets'].map((part) => raw.keys(`${SESSION_KEY_PREFIX}{*}:${part}`)));
  return found.flat().sort();
}

/** One of a session's turn-queue keys, by the session's members as a chat sends them. */
export function turnQueueKeyOf(session: SessionOf, part: 'turns' | 'leases' | 'tickets'): string {
  const [turns, leases, tickets] = turnQueueKeys(SESSION_KEY_PREFIX, sessionNameOf(session));
  return { turns, leases, tickets }[part]!;
}
