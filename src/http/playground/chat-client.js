// Sends one chat to this service and says, in words for the person at the page, what went wrong
// when it did not work. Nothing here touches the page.

/** The service takes a `message` of 1..4000 characters once trimmed (a longer one is a 400). */
export const MAX_MESSAGE_CHARS = 4000;

/**
 * @typedef {{ short: string, long: string, retryable: boolean }} Problem
 * @typedef {{ ok: true, answer: any } | { ok: false, problem: Problem }} ChatResult
 */

/** @param {unknown} body */
function detailOf(body) {
  const detail = /** @type {{ detail?: unknown } | undefined} */ (body)?.detail;
  if (typeof detail === 'string') return detail;
  const message = /** @type {{ message?: unknown } | undefined} */ (detail)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** What the page says about a message the service did not answer. */
export const UNREACHABLE = {
  short: 'the service is not answering',
  long: 'The service is not answering: it may be stopped or restarting. Start it again (npm start), then press Retry on the message.',
  retryable: true,
};

/**
 * @param {number} status
 * @param {unknown} body the answer's JSON, if it was JSON
 * @param {string | null} retryAfter
 * @returns {Problem}
 */
export function describeFailure(status, body, retryAfter) {
  const detail = detailOf(body) ?? `HTTP ${status}`;
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
 * @param {Record<string, unknown>} body
 * @param {Record<string, string>} headers
 * @returns {Promise<ChatResult>}
 */
export async function postChat(body, headers) {
  let res;
  try {
    res = await fetch('/chat_adapter', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  } catch {
    // fetch() rejects only when no answer came: refused, reset, offline.
    return { ok: false, problem: UNREACHABLE };
  }
  const answer = await res.json().catch(() => undefined);
  if (res.ok && answer !== undefined) return { ok: true, answer };
  if (res.ok) return { ok: false, problem: { short: 'unreadable answer', long: 'The service answered something that is not JSON. Press Retry on the message.', retryable: true } };
  return { ok: false, problem: describeFailure(res.status, answer, res.headers.get('retry-after')) };
}
