// The playground page: sends what a front-end sends to POST /chat_adapter and shows the answer as a
// front-end would (Markdown), with its classification and a per-step latency waterfall.
import { renderMarkdown } from './markdown.js';
import { waterfallBars } from './waterfall.js';

const ORG_ID = '9876543210987654321';
/** The sub-intents for which the service looks for contact details (processing rule 6). */
const CONTACT_SUB_INTENTS = new Set(['customer_info', 'contact', 'complaint_filing', 'agent_hand_off', 'emergency_maintenance']);
const MAX_HISTORY = 50;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));

/** @type {{ role: 'user' | 'assistant', content: string }[]} */
let history = [];

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

function resetConversation() {
  history = [];
  $('transcript').replaceChildren();
  $('error').hidden = true;
}

function newSession() {
  const select = /** @type {HTMLSelectElement} */ ($('session'));
  const id = uuidV4();
  const option = new Option(`${id.slice(0, 8)}… (new)`, id, true, true);
  option.dataset['conversation'] = conversationId();
  select.add(option);
  resetConversation();
}

/** @param {'user' | 'assistant'} role @param {string} html */
function addTurn(role, html) {
  const turn = document.createElement('div');
  turn.className = `turn ${role}`;
  turn.innerHTML = html; // always built from escaped text (renderMarkdown escapes first)
  $('transcript').append(turn);
  turn.scrollIntoView({ block: 'end' });
  return turn;
}

/** @param {string} id @param {string} text */
const show = (id, text) => {
  $(id).textContent = text;
};

/** @param {any} body */
function showDetails(body) {
  show('intent', body.intent);
  show('sub-intent', body.sub_intent);
  show('retrieval-type', body.retrieval_type);
  show('language', body.language);
  // The values themselves are personal data: the service stores them and never echoes them.
  show('contact', CONTACT_SUB_INTENTS.has(body.sub_intent)
    ? `looked for and stored when found (${body.latency.extract_and_update_contact_latency.toFixed(1)} ms)`
    : 'not looked for (sub-intent does not ask for it)');
  show('handoff', body.agent_handoff ? `started (${body.agent_handoff.reason})` : 'none');
  show('not-available', body.not_available.length > 0 ? body.not_available.join(', ') : 'none');
  show('message-id', body.message_id);
  show('trace-id', body.trace_id);
}

/** @param {any} latency */
function drawWaterfall(latency) {
  const rows = waterfallBars(latency).map((bar) => {
    const row = document.createElement('div');
    row.className = `row kind-${bar.kind}`;
    row.dataset['step'] = bar.step;
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = bar.step;
    name.title = `${bar.step} (${bar.kind})`;
    const track = document.createElement('div');
    track.className = 'track';
    const fill = document.createElement('div');
    fill.className = 'bar';
    fill.style.left = `${bar.offsetPct}%`;
    fill.style.width = `${bar.widthPct}%`;
    track.append(fill);
    const ms = document.createElement('span');
    ms.className = 'ms';
    ms.textContent = `${bar.ms.toFixed(2)} ms`;
    row.append(name, track, ms);
    return row;
  });
  $('waterfall').replaceChildren(...rows);
  show('latency-total', `${latency.chat_adapter_latency.toFixed(1)} ms`);
  show('latency-summary', `engine ${latency.service_engine_latency.toFixed(1)} ms · storing messages ${latency.create_message_latency.toFixed(1)} ms · contact ${latency.extract_and_update_contact_latency.toFixed(1)} ms`);
}

/** @param {string} text */
function showError(text) {
  const box = $('error');
  box.textContent = text;
  box.hidden = false;
}

/** @param {SubmitEvent} event */
async function send(event) {
  event.preventDefault();
  const message = field('message').value.trim();
  if (message === '') return;
  const session = /** @type {HTMLSelectElement} */ ($('session')).selectedOptions[0];
  const body = {
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
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json' };
  const key = field('caller-key').value.trim();
  if (key !== '') headers['authorization'] = `Bearer ${key}`;

  $('error').hidden = true;
  addTurn('user', renderMarkdown(message));
  field('message').value = '';
  /** @type {HTMLButtonElement} */ ($('send')).disabled = true;
  try {
    const res = await fetch('/chat_adapter', { method: 'POST', headers, body: JSON.stringify(body) });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) {
      const detail = typeof answer.detail === 'string' ? answer.detail : answer.detail?.message ?? res.statusText;
      showError(`${res.status}: ${detail}`);
      return;
    }
    const followUp = answer.follow_up ? `<div class="follow-up">${renderMarkdown(answer.follow_up)}</div>` : '';
    addTurn('assistant', renderMarkdown(answer.response) + followUp);
    history.push({ role: 'user', content: message }, { role: 'assistant', content: answer.response });
    showDetails(answer);
    drawWaterfall(answer.latency);
  } catch (err) {
    showError(`The service did not answer: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    /** @type {HTMLButtonElement} */ ($('send')).disabled = false;
  }
}

$('chat-form').addEventListener('submit', send);
field('message').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    $('chat-form').requestSubmit();
  }
});
$('new-session').addEventListener('click', newSession);
$('property').addEventListener('change', resetConversation);
$('session').addEventListener('change', resetConversation);
