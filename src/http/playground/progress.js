// What the typing line of a reply on its way says, in a visitor's words. The stream's `data-step`
// parts name the step that just finished (`reuseCachedReply`, `askEngine`...): internal names, for
// the latency waterfall, never shown as the typing text.

const READING = 'Reading your message…';
const THINKING = 'Thinking…';
const WRITING = 'Writing the reply…';
const FINISHING = 'Almost there…';

/** After each step, what comes next. A Map: a step name is the service's data, never an object key. */
const AFTER_STEP = new Map([
  ['waitForTurn', READING],
  ['receiveRequest', READING],
  ['validateRequest', READING],
  ['loadSession', READING],
  ['chooseLanguage', READING],
  ['trimHistory', THINKING],
  ['reuseCachedReply', THINKING],
  ['askEngine', WRITING],
  ['askEngineCacheHit', WRITING],
  ['answerFromPropertyApi', WRITING],
  ['formatReply', WRITING],
  ['translateReply', FINISHING],
  ['extractContact', FINISHING],
  ['decideHandoff', FINISHING],
  ['updateConversation', FINISHING],
  ['storeQuestion', FINISHING],
  ['startHandoff', FINISHING],
  ['storeAnswer', FINISHING],
  ['rememberTurn', FINISHING],
  ['assembleResponse', FINISHING],
]);

/** The typing line once `step` has finished; a step this page does not know keeps the visitor "Thinking…". @param {string} step */
export function progressText(step) {
  return AFTER_STEP.get(step) ?? THINKING;
}

/** Every phrase the typing line can show, for tests. */
export const PROGRESS_TEXTS = [READING, THINKING, WRITING, FINISHING];
