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
 * The message did not get a reply: it says so on the message itself, with Retry when trying again
 * can help, and Edit to put its text back into the box.
 * @param {HTMLElement} turn
 * @param {{ reason: string, retry?: () => void, edit: () => void }} what
 */
export function markFailed(turn, what) {
  turn.classList.remove('sending');
  turn.classList.add('failed');
  const status = setStatus(turn, `Not sent: ${what.reason}`);
  status.append(...(what.retry ? [button('Retry', what.retry)] : []), button('Edit', what.edit));
}

export function clearTranscript() {
  transcript().replaceChildren();
}
