/**
 * The turn calls tests make one at a time, through the same entry points a chat uses (the start
 * script, the poll, the start of a turn), so no part of the queue exists for tests alone.
 */
import type { SessionTurn, SessionTurns } from '../../src/turns/create-session-turns.ts';
import type { PollResult, RedisTurnQueue } from '../../src/turns/redis-turn-queue.ts';

/** Joins the queue as a chat without limits, key or session read does; true at the head. */
export async function enter(queue: RedisTurnQueue, session: string, token: string, leaseMs: number): Promise<boolean> {
  return (await queue.begin(session, token, leaseMs, [], 0)).state === 'head';
}

/** Where the entry stands, without reading the session. */
export async function poll(queue: RedisTurnQueue, session: string, token: string): Promise<PollResult> {
  return (await queue.pollReading(session, token, [])).state;
}

/** The turn of a chat with no limits or key, or undefined when the deadline passed first. */
export async function acquire(turns: SessionTurns, session: string, deadlineAt: number): Promise<SessionTurn | undefined> {
  const outcome = await turns.begin(session, deadlineAt, {});
  return outcome.kind === 'turn' ? outcome.turn : undefined;
}
