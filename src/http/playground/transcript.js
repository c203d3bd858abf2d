// The conversation on the page: the visitor's turns with their state (sending, sent, not sent) and
// the replies. Turn text is always built from escaped text (markdown.js escapes first).
import { renderMarkdown } from './markdown.js';

const transcript = () => /** @type {HTMLElement} */ (document.getElementById('transcript'));

/** @param {'user' | 'assistant'} role @param {string} html */
export function addTurn(role, html) {
  const turn = document.createElement('div');
  turn.className = `turn ${role}`;
  const text = document.createElement('div');
  text.className = 'text';
  text.innerHTML = html;
  turn.append(text);
  transcript().append(turn);
  turn.scrollIntoView({ block: 'end' });
  return turn;
}

/** @param {HTMLElement} turn @param {string} text */
function setStatus(turn, text) {
  let status = turn.querySelector('.status');
  if (status === null) {
    status = document.createElement('div');
    status.className = 'status';
    turn.append(status);
  }
  status.replaceChildren(text);
  return /** @type {HTMLElement} */ (status);
}

/** A visitor's message, shown as being sent. @param {string} message */
export function addUserTurn(message) {
  const turn = addTurn('user', renderMarkdown(message));
  turn.classList.add('sending');
  setStatus(turn, 'Sending…');
  return turn;
}

/** @param {HTMLElement} turn */
export function markSent(turn) {
  turn.classList.remove('sending', 'failed');
  turn.querySelector('.status')?.remove();
}

/** @param {string} label @param {() => void} action */
function button(label, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = label.toLowerCase();
  b.addEventListener('click', action);
  return b;
}

/**
 * The message did not get a reply: it says so on the message itself ("Not sent", or "No reply"
 * when the service failed while answering), with Retry when trying again can help, and Edit to
 * put its text back into the box.
 * @param {HTMLElement} turn
 * @param {{ reason: string, sent?: boolean, retry?: () => void, edit: () => void }} what
 */
export function markFailed(turn, what) {
  turn.classList.remove('sending');
  turn.classList.add('failed');
  const status = setStatus(turn, `${what.sent ? 'No reply' : 'Not sent'}: ${what.reason}`);
  status.append(...(what.retry ? [button('Retry', what.retry)] : []), button('Edit', what.edit));
}

export function clearTranscript() {
  transcript().replaceChildren();
}

/**
 * The reply on its way: a typing line that names the step that just finished ("askEngine 812 ms…")
 * and, when the reply streams, its text growing as plain text (the DOM escapes it); the answer
 * replaces both (completeReply).
 */
export function addPendingReply() {
  const turn = addTurn('assistant', '');
  turn.classList.add('pending');
  const progress = document.createElement('div');
  progress.className = 'progress';
  progress.textContent = 'Waiting for the reply…';
  turn.append(progress);
  return turn;
}

/** @param {number} ms */
const duration = (ms) => `${ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;

/** @param {HTMLElement} turn @param {string} step @param {number} ms */
export function showProgress(turn, step, ms) {
  const progress = turn.querySelector('.progress');
  if (progress !== null) progress.textContent = `${step} ${duration(ms)}…`;
}

/** @param {HTMLElement} turn @param {string} textSoFar */
export function showPartialText(turn, textSoFar) {
  turn.classList.add('streaming');
  /** @type {HTMLElement} */ (turn.querySelector('.text')).textContent = textSoFar;
  turn.scrollIntoView({ block: 'end' });
}

/** The whole reply is known. @param {HTMLElement} turn @param {string} html built from escaped text */
export function completeReply(turn, html) {
  turn.classList.remove('pending', 'streaming');
  turn.querySelector('.progress')?.remove();
  /** @type {HTMLElement} */ (turn.querySelector('.text')).innerHTML = html;
  turn.scrollIntoView({ block: 'end' });
}
