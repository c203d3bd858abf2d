// Sends one chat to this service, streamed (stream.js) or as JSON, and says, in words for the
// person at the page, what went wrong when it did not work. Nothing here touches the page.
import { EVENT_STREAM, readReplyStream } from './stream.js';

/** The service takes a `message` of 1..4000 characters once trimmed (a longer one is a 400). */
export const MAX_MESSAGE_CHARS = 4000;

/**
 * `sent`: the message reached the service, which then failed while answering it. `traceId`: the
 * failed answer's trace id (its `traceresponse` header), the one id that finds it in the traces.
 * @typedef {{ short: string, long: string, retryable: boolean, sent?: boolean, traceId?: string }} Problem
 * @typedef {{ ok: true, answer: any } | { ok: false, problem: Problem }} ChatResult
 * @typedef {import('./stream.js').StreamView & { stream?: boolean }} ChatView
 */

/** @param {unknown} body */
function detailOf(body) {
  const detail = /** @type {{ detail?: unknown } | undefined} */ (body)?.detail;
  if (typeof detail === 'string') return detail;
  const message = /** @type {{ message?: unknown } | undefined} */ (detail)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * The trace id of a `traceresponse` header (`00-<trace id>-<span id>-<flags>`), or undefined.
 * @param {string | null} header
 */
export function traceIdOf(header) {
  const parts = (header ?? '').split('-');
  return parts.length === 4 && /^[0-9a-f]{32}$/.test(parts[1] ?? '') ? parts[1] : undefined;
}

/** What the page says about a message the service did not answer. */
export const UNREACHABLE = {
  short: 'the service is not answering',
  long: 'The service is not answering: it may be stopped or restarting. Start it again (npm start), then press Retry on the message.',
  retryable: true,
};

/**
 * The details of a failure while the service was answering a message it took in: a party it
 * needs unavailable, or a defect. A stream's error part carries the same words.
 */
const WHILE_ANSWERING = /^(?:engine|graphql|handoff|translate|propertyApi) unavailable$|^Internal server error$/;

/**
 * One failure is told one way, however the reply was asked for: a failure while answering reads
 * "No reply: <the service's detail>" whether it came as a JSON error or as a stream's error part.
 * @param {number} status
 * @param {unknown} body the answer's JSON, if it was JSON
 * @param {string | null} retryAfter
 * @returns {Problem}
 */
export function describeFailure(status, body, retryAfter) {
  const given = detailOf(body);
  // The service took the message and failed while answering it (a party unavailable, a defect):
  // said as a streamed reply's error part says the same failure.
  if (status >= 500 && given !== undefined && WHILE_ANSWERING.test(given)) return describeBrokenReply(given);
  const detail = given ?? `HTTP ${status}`;
  const wait = retryAfter !== null && /^\d+$/.test(retryAfter) ? ` in ${retryAfter} s` : '';
  if (status === 503 || status === 502 || status === 504) {
    return { short: 'the service is unavailable', long: `The service is unavailable (${detail}). This is usually brief: press Retry on the message${wait}.`, retryable: true };
  }
  if (status === 429) return { short: 'too many messages', long: `Too many messages (${detail}): press Retry on the message${wait}.`, retryable: true };
  if (status === 409) return { short: 'an earlier try is still running', long: `${detail}: press Retry on the message${wait}.`, retryable: true };
  if (status === 401 || status === 403) {
    return { short: 'caller key refused', long: `The service refused the caller key (${status} ${detail}): set it under Keys, then press Retry on the message.`, retryable: true };
  }
  if (status >= 500) return { short: 'the service failed', long: `The service failed (${status}: ${detail}). Press Retry on the message.`, retryable: true };
  return { short: 'refused by the service', long: `The service refused the message (${status}): ${detail}. Press Edit on the message to change it.`, retryable: false };
}

/**
 * A failure after the stream started: the service's `detail` (`errorText`) is what it says. The
 * service keeps nothing for the Idempotency-Key then, so Retry runs the message again.
 * @param {string} errorText
 * @returns {Problem}
 */
export function describeBrokenReply(errorText) {
  return { short: errorText, long: `The service failed while answering (${errorText}). Press Retry on the message.`, retryable: true, sent: true };
}

/** The connection closed in the middle of a streamed reply. */
export const CUT_OFF = {
  short: 'the reply was cut off',
  long: 'The connection to the service closed before the reply was complete. Press Retry on the message.',
  retryable: true,
  sent: true,
};

/**
 * Sends one chat. With `view.stream` it asks for a streamed reply and tells the view of each step
 * and of the text as it grows; an answer that is not a stream (an error before the stream
 * started, or a service that does not stream) is read as JSON, as without it.
 * @param {Record<string, unknown>} body
 * @param {Record<string, string>} headers
 * @param {ChatView} [view]
 * @returns {Promise<ChatResult>}
 */
export async function postChat(body, headers, view = {}) {
  const accept = view.stream ? `${EVENT_STREAM}, application/json;q=0.9` : 'application/json';
  let res;
  try {
    res = await fetch('/chat_adapter', { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body: JSON.stringify(body) });
  } catch {
    // fetch() rejects only when no answer came: refused, reset, offline.
    return { ok: false, problem: UNREACHABLE };
  }
  const traceId = traceIdOf(res.headers.get('traceresponse'));
  /** @param {Problem} problem @returns {ChatResult} */
  const failed = (problem) => ({ ok: false, problem: traceId === undefined ? problem : { ...problem, traceId } });
  if (res.ok && res.body !== null && (res.headers.get('content-type') ?? '').startsWith(EVENT_STREAM)) {
    try {
      const { answer, errorText } = await readReplyStream(res.body, view);
      return errorText === undefined ? { ok: true, answer } : failed(describeBrokenReply(errorText));
    } catch {
      return failed(CUT_OFF);
    }
  }
  const answer = await res.json().catch(() => undefined);
  if (res.ok && answer !== undefined) return { ok: true, answer };
  if (res.ok) return failed({ short: 'unreadable answer', long: 'The service answered something that is not JSON. Press Retry on the message.', retryable: true });
  return failed(describeFailure(res.status, answer, res.headers.get('retry-after')));
}
