/**
 * A chat's turn, from admission to end, in one place (docs/api.md#one-turn-at-a-time-per-session,
 * #idempotency, #rate-limits). `admit` answers, for one validated chat, exactly one of:
 *   replay / in_flight / mismatch   its Idempotency-Key is held (a kept answer, a request still
 *                                   running, a different request): nothing counted, nothing queued;
 *   refused                         over a rate limit: never queued, its key given back;
 *   busy                            its deadline passed while it waited for its session's turn;
 *   gone                            its caller left while it waited: it never runs, its key and
 *                                   every count it made are given back;
 *   turn                            it holds its session's turn: a ChatTurn.
 * The ChatTurn carries what the chat needs (the session read with the turn, its key) and ends in
 * one of two ways, whichever way the answer goes out (JSON or a stream):
 *   finish(body)  the 200 answer is kept for the key (before it goes out, so a retry after it is a
 *                 replay), then the session's turn is stored and the next message let go;
 *   abandon()     the key's claim is given back (a retry runs again), the turn let go, nothing stored.
 * Knows nothing of HTTP: the chat plugin (src/http/chat-admission.ts) maps the answers to statuses.
 */
import type { Claim, HeldClaim, IdempotencyStore, KeptAnswer } from '../idempotency/idempotency-store.ts';
import type { SessionKey } from '../cache/session-cache.ts';
import type { RateWindows, WindowCount } from './rate-windows.ts';
import type { SessionTurn, SessionTurns, TurnSession } from './session-turns.ts';

/** What admission needs to know of one validated chat. */
export interface ChatFacts {
  /** The session's name (src/pipeline/session-key.ts `sessionNameOf`) and key. */
  readonly sessionName: string;
  readonly sessionKey: SessionKey;
  /** Absolute deadline on the performance.now() clock. */
  readonly deadlineAt: number;
  /** The Idempotency-Key's scope (orgId and key) and the request's fingerprint; undefined without a key. */
  readonly idempotency?: { readonly key: string; readonly scope: string; readonly fingerprint: string } | undefined;
  readonly limits?: RateWindows | undefined;
  /** Aborts when the caller leaves before an answer. */
  readonly callerGone?: AbortSignal | undefined;
}

export interface ChatTurn {
  /** How the pipeline reads and stores its session for this turn; undefined: through the session cache. */
  readonly session: TurnSession | undefined;
  /** The checked Idempotency-Key this turn holds; undefined without one. */
  readonly idempotencyKey: string | undefined;
  /** Keeps `body` as the 200 answer to the key, then ends the turn. Idempotent with abandon: the first call wins. */
  finish(body: string): Promise<void>;
  /** Gives the key back and ends the turn without keeping an answer. */
  abandon(): Promise<void>;
}

export type Admission =
  | { readonly kind: 'replay'; readonly answer: KeptAnswer }
  | { readonly kind: 'in_flight' }
  | { readonly kind: 'mismatch' }
  | { readonly kind: 'refused'; readonly counts: readonly WindowCount[] }
  | { readonly kind: 'busy'; readonly counts: readonly WindowCount[] }
  | { readonly kind: 'gone' }
  | { readonly kind: 'turn'; readonly counts: readonly WindowCount[]; readonly turn: ChatTurn };

export interface ChatTurns {
  admit(chat: ChatFacts): Promise<Admission>;
  /** Sessions with a message holding or waiting for the turn on this instance. */
  readonly activeSessions: number;
}

export function createChatTurns(idempotency: IdempotencyStore, turns: SessionTurns): ChatTurns {
  return {
    get activeSessions() {
      return turns.activeSessions;
    },
    async admit(chat) {
      let claim: Claim | undefined;
      const key = chat.idempotency;
      const outcome = await turns.begin(chat.sessionName, chat.deadlineAt, {
        session: chat.sessionKey,
        limits: chat.limits,
        callerGone: chat.callerGone,
        claim: key === undefined ? undefined : async () => {
          claim = await idempotency.claim(key.scope, key.fingerprint);
          return claim.outcome === 'claimed';
        },
      });
      switch (outcome.kind) {
        case 'answered':
          if (claim === undefined || claim.outcome === 'claimed') throw new Error('the start of the turn answered a chat its claim did not');
          return claim.outcome === 'replay' ? { kind: 'replay', answer: claim.answer } : { kind: claim.outcome };
        case 'refused':
          await (claim as HeldClaim | undefined)?.release();
          return outcome;
        case 'turn':
          if (outcome.turn === undefined) {
            await (claim as HeldClaim | undefined)?.release();
            return chat.callerGone?.aborted === true ? { kind: 'gone' } : { kind: 'busy', counts: outcome.counts };
          }
          return { kind: 'turn', counts: outcome.counts, turn: chatTurn(outcome.turn, key?.key, claim as HeldClaim | undefined) };
      }
    },
  };
}

function chatTurn(turn: SessionTurn, idempotencyKey: string | undefined, claim: HeldClaim | undefined): ChatTurn {
  let ended = false;
  const end = async (keep: (held: HeldClaim) => Promise<void>) => {
    if (ended) return;
    ended = true;
    try {
      if (claim !== undefined) await keep(claim);
    } finally {
      turn.release();
    }
  };
  return {
    session: turn.session,
    idempotencyKey,
    finish: (body) => end((held) => held.complete({ status: 200, body })),
    abandon: () => end((held) => held.release()),
  };
}
