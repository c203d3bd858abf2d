/**
 * The session cache as one chat sees it while its turn holds the shared queue's lease
 * (create-session-turns.ts `TurnSession`): the session read with the turn is served without
 * asking Redis again, and the turn's record is handed to the turn, which stores it with its leave,
 * before the session's next message can read it. Everything else goes to the service's cache.
 */
import type { SessionCache } from '../cache/session-cache.ts';
import type { TurnSession } from './create-session-turns.ts';

export function turnSessionCache(base: SessionCache, session: TurnSession): SessionCache {
  const read = session.read;
  return {
    get: read === undefined ? (key) => base.get(key) : () => Promise.resolve(read.entry),
    recordTurn(_key, turn) {
      session.remember(turn);
      return Promise.resolve();
    },
    ping: () => base.ping(),
    close: () => base.close(),
  };
}
