// The playground page: sends what a front-end sends to POST /chat_adapter and shows the answer as a
// front-end would (render-answer.js), with its classification and a per-step latency waterfall.
// Replies stream (unless "Stream replies" is off): the steps show as they finish, the text as it
// is written. A message that gets no answer stays on the page marked "Not sent" (or "No reply"
// when the service failed while answering), with Retry and Edit. Stop stops a streamed reply; the
// conversation and a reply in flight survive a reload of the tab (sessionStorage): the page asks
// the service for the rest of that reply (GET /chat_adapter/{conversation_id}/stream) and shows it once.
import { MAX_MESSAGE_CHARS, postChat, resumeChat, stopChat } from './chat-client.js';
import { renderMarkdown } from './markdown.js';
import { clearAnswer, renderAnswer } from './render-answer.js';
import { addPendingReply, addTurn, addUserTurn, clearTranscript, completeReply, markFailed, markSent, showPartialText, showProgress } from './transcript.js';

const ORG_ID = '9876543210987654321';
const MAX_HISTORY = 50;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));

/** @type {{ role: 'user' | 'assistant', content: string }[]} */
let history = [];
let sending = false;
/** The streamed reply in flight, for Stop: its conversation and its `start` part's messageId. */
/** @type {{ conversation: string, messageId: string } | undefined} */
let inFlight;

const STATE_KEY = 'chat-adapter-playground';

/**
 * What survives a reload of this tab: the session and property, the conversation so far, and the
 * message whose streamed reply is on its way (`pending`).
 * @param {{ message: string } | undefined} pending
 */
function saveState(pending) {
  const session = /** @type {HTMLSelectElement} */ ($('session')).selectedOptions[0];
  if (session === undefined) return;
  const state = { session: session.value, label: session.textContent, conversation: session.dataset['conversation'], property: field('property').value, history, pending };
  try {
    sessionStorage.setItem(STATE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or refused: the page works on, it only forgets on reload.
  }
}

/** A UUID v4 also where crypto.randomUUID is missing (plain http on a non-local host). */
function uuidV4() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** 19 digits, the first not 0. */
function conversationId() {
  const digits = [...crypto.getRandomValues(new Uint8Array(19))].map((x) => String(x % 10));
  digits[0] = String(1 + ((crypto.getRandomValues(new Uint8Array(1))[0] ?? 0) % 9));
  return digits.join('');
}

/** @param {string | undefined} text */
function showError(text) {
  const box = $('error');
  box.textContent = text ?? '';
  box.hidden = text === undefined;
}

function resetConversation() {
  history = [];
  saveState(undefined);
  clearTranscript();
  showError(undefined);
  clearAnswer('Send a message to see where the time went.');
}

function newSession() {
  const select = /** @type {HTMLSelectElement} */ ($('session'));
  const id = uuidV4();
  const option = new Option(`${id.slice(0, 8)}… (new)`, id, true, true);
  option.dataset['conversation'] = conversationId();
  select.add(option);
  resetConversation();
}

/** The request body a front-end sends for `message`, with the conversation so far. @param {string} message */
function chatBody(message) {
  const session = /** @type {HTMLSelectElement} */ ($('session')).selectedOptions[0];
  return {
    propertyId: field('property').value,
    orgId: ORG_ID,
    conversation_id: session?.dataset['conversation'] ?? conversationId(),
    session_id: session?.value ?? 'fake_service_session_id',
    graphql_api_key: field('graphql-key').value,
    tourScheduleEnabled: field('tour').checked,
    spanish_toggle: field('spanish-toggle').checked,
    spanish_support_enabled: field('spanish-support').checked,
    history: history.slice(-MAX_HISTORY),
    message,
  };
}

/** @param {boolean} busy */
function setSending(busy) {
  sending = busy;
  /** @type {HTMLButtonElement} */ ($('send')).disabled = busy;
  for (const b of document.querySelectorAll('#transcript button')) /** @type {HTMLButtonElement} */ (b).disabled = busy;
  if (!busy) inFlight = undefined;
  $('stop').hidden = inFlight === undefined;
}

/** The caller key as the page sends it. @returns {Record<string, string>} */
function authHeaders() {
  const key = field('caller-key').value.trim();
  return key === '' ? {} : { authorization: `Bearer ${key}` };
}

/**
 * The view of a streamed reply on its way into `reply`; `started` runs at its first part.
 * @param {HTMLElement} reply @param {string} conversation @param {() => void} started
 */
function streamView(reply, conversation, started) {
  return {
    /** @param {string} messageId */
    onStart: (messageId) => {
      inFlight = { conversation, messageId };
      $('stop').hidden = false;
    },
    /** @param {string} step */
    onStep: (step) => {
      started();
      showProgress(reply, step);
    },
    /** @param {string} textSoFar */
    onText: (textSoFar) => {
      started();
      showPartialText(reply, textSoFar);
    },
  };
}

/**
 * A reply that came whole (or was stopped): it joins the conversation and is shown.
 * @param {string} message @param {{ answer: any, stopped?: { text: string } }} result @param {HTMLElement} reply
 */
function showReply(message, result, reply) {
  if (result.stopped !== undefined) {
    history.push({ role: 'user', content: message }, { role: 'assistant', content: result.stopped.text });
    completeReply(reply, `${renderMarkdown(result.stopped.text)}<p class="muted">(stopped)</p>`);
    clearAnswer('The reply was stopped.');
    return;
  }
  history.push({ role: 'user', content: message }, { role: 'assistant', content: result.answer.response });
  renderAnswer(result.answer, reply);
}

/**
 * Sends one message and shows what came of it. A retry sends the same body under the same
 * Idempotency-Key: if the first try did reach the service, it is not stored twice.
 * @param {{ message: string, body: Record<string, unknown>, idempotencyKey: string }} chat
 */
async function deliver(chat) {
  const turn = addUserTurn(chat.message);
  showError(undefined);
  clearAnswer('Waiting for the reply…');
  setSending(true);
  const headers = { 'idempotency-key': chat.idempotencyKey, ...authHeaders() };
  const reply = addPendingReply();
  // A streamed reply has started: the service took the message, so it no longer shows "Sending…".
  const started = () => {
    if (turn.classList.contains('sending')) markSent(turn);
  };
  const stream = field('stream').checked;
  // Until the reply is complete, a reload of the page resumes it.
  if (stream) saveState({ message: chat.message });
  try {
    const result = await postChat(chat.body, headers, { stream, ...streamView(reply, String(chat.body['conversation_id']), started) });
    if (result.ok) {
      markSent(turn);
      showReply(chat.message, result, reply);
      return;
    }
    // A reply that broke off is not part of the conversation: Retry asks for it again.
    reply.remove();
    const { problem } = result;
    markFailed(turn, {
      reason: problem.short,
      ...(problem.sent && { sent: true }),
      ...(problem.retryable && { retry: () => { turn.remove(); void deliver(chat); } }),
      edit: () => {
        turn.remove();
        showError(undefined);
        field('message').value = chat.message;
        field('message').focus();
      },
    });
    showError(problem.traceId === undefined ? problem.long : `${problem.long} Trace id: ${problem.traceId}`);
    clearAnswer(problem.sent ? 'No reply: the service failed while answering.' : 'No reply: the message was not sent.', problem.traceId);
  } finally {
    saveState(undefined);
    setSending(false);
  }
}

/**
 * After a reload: the reply to `message` was on its way; the service gives it from its start (or
 * says there is none any more: then it is in the stored conversation, not on this page).
 * @param {string} message @param {string} conversation
 */
async function resumeReply(message, conversation) {
  const turn = addUserTurn(message);
  markSent(turn);
  const reply = addPendingReply();
  setSending(true);
  try {
    const result = await resumeChat(conversation, authHeaders(), streamView(reply, conversation, () => {}));
    if (result !== undefined && result.ok) {
      showReply(message, result, reply);
      return;
    }
    reply.remove();
    markFailed(turn, { reason: result === undefined ? 'the reply could not be resumed' : result.problem.short, sent: true, edit: () => field('message').focus() });
  } finally {
    saveState(undefined);
    setSending(false);
  }
}

/** Puts back what the tab showed before a reload, and resumes a reply that was on its way. */
function restore() {
  /** @type {any} */
  let state;
  try {
    state = JSON.parse(sessionStorage.getItem(STATE_KEY) ?? 'null');
  } catch {
    return;
  }
  if (state === null || typeof state !== 'object' || typeof state.session !== 'string' || typeof state.conversation !== 'string') return;
  const select = /** @type {HTMLSelectElement} */ ($('session'));
  let option = [...select.options].find((o) => o.value === state.session && o.dataset['conversation'] === state.conversation);
  if (option === undefined) {
    option = new Option(String(state.label ?? state.session), state.session);
    option.dataset['conversation'] = state.conversation;
    select.add(option);
  }
  option.selected = true;
  if (typeof state.property === 'string') field('property').value = state.property;
  history = Array.isArray(state.history) ? state.history.filter((/** @type {any} */ m) => typeof m?.content === 'string' && (m.role === 'user' || m.role === 'assistant')) : [];
  for (const m of history) {
    if (m.role === 'user') markSent(addUserTurn(m.content));
    else addTurn('assistant', renderMarkdown(m.content));
  }
  if (typeof state.pending?.message === 'string') void resumeReply(state.pending.message, state.conversation);
}

$('stop').addEventListener('click', () => {
  if (inFlight !== undefined) void stopChat(inFlight.conversation, inFlight.messageId, authHeaders());
});
restore();

/** @param {SubmitEvent} event */
function send(event) {
  event.preventDefault();
  if (sending) return;
  const message = field('message').value.trim();
  if (message === '') return;
  if (message.length > MAX_MESSAGE_CHARS) {
    showError(`The message is ${message.length.toLocaleString('en')} characters long; the service takes at most ${MAX_MESSAGE_CHARS.toLocaleString('en')}. Shorten it and send again.`);
    return;
  }
  field('message').value = '';
  void deliver({ message, body: chatBody(message), idempotencyKey: uuidV4() });
}

$('chat-form').addEventListener('submit', send);
field('message').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    /** @type {HTMLFormElement} */ ($('chat-form')).requestSubmit();
  }
});
$('new-session').addEventListener('click', newSession);
$('property').addEventListener('change', resetConversation);
$('session').addEventListener('change', resetConversation);
