// Shows one chat answer on the page: the reply in the transcript (Markdown, as a front-end shows
// it), its classification in "Last reply" and where its time went. `renderAnswer` is the one place
// that turns an answer into page content, whether it came as JSON or as a stream's data-chat part.
import { renderMarkdown } from './markdown.js';
import { addTurn, completeReply } from './transcript.js';
import { waterfallRows } from './waterfall.js';

/** The sub-intents for which the service looks for contact details (rule 6). */
const CONTACT_SUB_INTENTS = new Set(['customer_info', 'contact', 'complaint_filing', 'agent_hand_off', 'emergency_maintenance']);
const DETAIL_IDS = ['intent', 'sub-intent', 'retrieval-type', 'language', 'contact', 'handoff', 'not-available', 'message-id', 'trace-id'];

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id @param {string} text */
const show = (id, text) => {
  $(id).textContent = text;
};
const ms = (/** @type {number} */ value, digits = 1) => `${value.toFixed(digits)} ms`;

/**
 * What was found, as the service masks it (`contact_found`, e.g. "phone •••• 4567, email
 * j•••@gmail.com"): the details themselves are personal data, which the service never echoes.
 * Each value is its own element, so that a narrow panel wraps between values, not inside one.
 * @param {any} answer
 * @returns {(string | HTMLElement)[]}
 */
function contactRow(answer) {
  if (!CONTACT_SUB_INTENTS.has(answer.sub_intent)) return ['not looked for (sub-intent does not ask for it)'];
  const took = ms(answer.latency.extract_and_update_contact_latency);
  const found = answer.contact_found;
  /** @type {[string, unknown][]} */
  const members = found ? [['name', found.name], ['phone', found.phone], ['email', found.email]] : [];
  const parts = members.filter(([, value]) => typeof value === 'string' && value !== '').map(([what, value]) => {
    const part = document.createElement('span');
    part.className = `contact-${what}`;
    part.textContent = `${what} ${value}`;
    return part;
  });
  if (parts.length === 0) return [`looked for, none found (${took})`];
  return [...parts.flatMap((part, i) => (i === 0 ? [part] : [', ', part])), ` (${took})`];
}

/** @param {any} answer */
function showDetails(answer) {
  show('intent', answer.intent);
  show('sub-intent', answer.sub_intent);
  show('retrieval-type', answer.retrieval_type);
  show('language', answer.language);
  $('contact').replaceChildren(...contactRow(answer));
  show('handoff', answer.agent_handoff ? `started (${answer.agent_handoff.reason})` : 'none');
  show('not-available', answer.not_available.length > 0 ? answer.not_available.join(', ') : 'none');
  show('message-id', answer.message_id);
  show('trace-id', answer.trace_id);
}

/** @param {import('./waterfall.js').Bar} bar */
function barRow(bar) {
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
  const time = document.createElement('span');
  time.className = 'ms';
  time.textContent = ms(bar.ms, 2);
  row.append(name, track, time);
  return row;
}

/** The steps too short to draw, named with their durations under the bars. @param {import('./waterfall.js').Bar[]} short @param {number} total */
function shortSteps(short, total) {
  const list = document.createElement('details');
  list.className = 'short-steps';
  const summary = document.createElement('summary');
  summary.textContent = `${short.length} shorter ${short.length === 1 ? 'step' : 'steps'}, ${ms(total, 2)} in all`;
  const names = document.createElement('p');
  names.append(...short.flatMap((bar, i) => {
    const item = document.createElement('span');
    item.dataset['step'] = bar.step;
    item.textContent = `${bar.step} ${ms(bar.ms, 2)}`;
    return i === 0 ? [item] : [' · ', item];
  }));
  list.append(summary, names);
  return list;
}

/** @param {any} latency */
function drawWaterfall(latency) {
  const { drawn, short, shortMs } = waterfallRows(latency);
  $('waterfall').replaceChildren(...drawn.map(barRow));
  $('short-steps').replaceChildren(...(short.length > 0 ? [shortSteps(short, shortMs)] : []));
  show('latency-total', ms(latency.chat_adapter_latency));
  show('latency-summary', `engine ${ms(latency.service_engine_latency)} · storing messages ${ms(latency.create_message_latency)} · contact ${ms(latency.extract_and_update_contact_latency)}`);
}

/**
 * The side panels without an answer: `note` says why (waiting, or the message was not sent). A failed
 * message's trace id (from the answer's `traceresponse` header) stays shown: it is what finds the failure in the traces.
 * @param {string} note
 * @param {string} [traceId]
 */
export function clearAnswer(note, traceId) {
  for (const id of DETAIL_IDS) show(id, '–');
  if (traceId !== undefined) show('trace-id', traceId);
  $('waterfall').replaceChildren();
  $('short-steps').replaceChildren();
  show('latency-total', '');
  show('latency-summary', note);
}

/**
 * @param {any} answer a 200 answer of POST /chat_adapter (the JSON body, or a stream's data-chat part)
 * @param {HTMLElement} [pending] the reply's turn already on the page (addPendingReply), which the answer completes
 */
export function renderAnswer(answer, pending) {
  const followUp = answer.follow_up ? `<div class="follow-up">${renderMarkdown(answer.follow_up)}</div>` : '';
  const html = renderMarkdown(answer.response) + followUp;
  if (pending === undefined) addTurn('assistant', html);
  else completeReply(pending, html);
  showDetails(answer);
  drawWaterfall(answer.latency);
}
