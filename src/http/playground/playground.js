// The playground page: sends what a front-end sends to POST /chat_adapter and shows the answer as a
// front-end would (render-answer.js), with its classification and a per-step latency waterfall.
// Replies stream (unless "Stream replies" is off): the steps show as they finish, the text as it
// is written. A message that gets no answer stays on the page marked "Not sent" (or "No reply"
// when the service failed while answering), with Retry and Edit.
import { MAX_MESSAGE_CHARS, postChat } from './chat-client.js';
import { clearAnswer, renderAnswer } from './render-answer.js';
import { addPendingReply, addUserTurn, clearTranscript, markFailed, markSent, showPartialText, showProgress } from './transcript.js';

const ORG_ID = '9876543210987654321';
const MAX_HISTORY = 50;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));

/** @type {{ role: 'user' | 'assistant', content: string }[]} */
let history = [];
let sending = false;

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
  /** @type {Record<string, string>} */
  const headers = { 'idempotency-key': chat.idempotencyKey };
  const key = field('caller-key').value.trim();
  if (key !== '') headers['authorization'] = `Bearer ${key}`;
  const reply = addPendingReply();
  // A streamed reply has started: the service took the message, so it no longer shows "Sending…".
  const started = () => {
    if (turn.classList.contains('sending')) markSent(turn);
  };
  try {
    const result = await postChat(chat.body, headers, {
      stream: field('stream').checked,
      onStep: (step) => {
        started();
        showProgress(reply, step);
      },
      onText: (textSoFar) => {
        started();
        showPartialText(reply, textSoFar);
      },
    });
    if (result.ok) {
      markSent(turn);
      history.push({ role: 'user', content: chat.message }, { role: 'assistant', content: result.answer.response });
      renderAnswer(result.answer, reply);
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
    setSending(false);
  }
}

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
