/**
 * The session cache as one chat sees it through its turn (session-turns.ts `TurnSession`).
 * While the turn holds the shared queue's lease, the session read with the turn is served without
 * asking Redis again, and the turn's record is handed to the turn, which stores it with its leave,
 * before the session's next message can read it. When Redis stalled the chat's start, Redis is not
 * waited for again: no read, and the write goes on behind the chat. Everything else goes to the
 * service's cache.
 */
import type { SessionCache } from '../cache/session-cache.ts';
import type { TurnSession } from './session-turns.ts';

export function turnSessionCache(base: SessionCache, session: TurnSession): SessionCache {
  if (session.kind === 'stalled') {
    return {
      get: () => Promise.resolve(undefined),
      recordTurn(key, turn) {
        session.holdTurnUntil(base.recordTurn(key, turn));
        return Promise.resolve();
      },
      ping: () => base.ping(),
      close: () => base.close(),
    };
  }
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
