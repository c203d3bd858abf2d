// The conversation on the page: the visitor's turns with their state (sending, sent, not sent) and
// the replies. Turn text is always built from escaped text (markdown.js escapes first).
import { renderMarkdown } from './markdown.js';
import { progressText } from './progress.js';

const transcript = () => /** @type {HTMLElement} */ (document.getElementById('transcript'));

/**
 * Shows the newest turn by scrolling the transcript alone. (`scrollIntoView` would scroll the page
 * too, and on a phone push the message box below the fold at every message.)
 */
function showLatest() {
  const box = transcript();
  box.scrollTop = box.scrollHeight;
}

/** @param {'user' | 'assistant'} role @param {string} html */
export function addTurn(role, html) {
  const turn = document.createElement('div');
  turn.className = `turn ${role}`;
  const text = document.createElement('div');
  text.className = 'text';
  text.innerHTML = html;
  turn.append(text);
  transcript().append(turn);
  showLatest();
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
 * The reply on its way: a typing line that says, in a visitor's words, what the service is doing
 * (progress.js: "Thinking…", "Writing the reply…") and, when the reply streams, its text growing as
 * plain text (the DOM escapes it); the answer replaces both (completeReply).
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

/** @param {HTMLElement} turn @param {string} step the step that just finished */
export function showProgress(turn, step) {
  const progress = turn.querySelector('.progress');
  if (progress !== null) progress.textContent = progressText(step);
}

/** @param {HTMLElement} turn @param {string} textSoFar */
export function showPartialText(turn, textSoFar) {
  turn.classList.add('streaming');
  /** @type {HTMLElement} */ (turn.querySelector('.text')).textContent = textSoFar;
  showLatest();
}

/** The whole reply is known. @param {HTMLElement} turn @param {string} html built from escaped text */
export function completeReply(turn, html) {
  turn.classList.remove('pending', 'streaming');
  turn.querySelector('.progress')?.remove();
  /** @type {HTMLElement} */ (turn.querySelector('.text')).innerHTML = html;
  showLatest();
}
