import { answerFromPropertyApi } from './answer-from-property-api.ts';
import { askEngine } from './ask-engine.ts';
import { assembleResponse } from './assemble-response.ts';
import { chooseLanguage } from './choose-language.ts';
import { decideHandoff } from './decide-handoff.ts';
import { extractContact } from './extract-contact.ts';
import { formatReply } from './format-reply.ts';
import { loadSession } from './load-session.ts';
import { receiveRequest } from './receive-request.ts';
import { rememberTurn } from './remember-turn.ts';
import { reuseCachedReply } from './reuse-cached-reply.ts';
import { startHandoff } from './start-handoff.ts';
import { storeAnswer } from './store-answer.ts';
import { storeQuestion } from './store-question.ts';
import { translateReply } from './translate-reply.ts';
import { trimHistory } from './trim-history.ts';
import { updateConversation } from './update-conversation.ts';
import { validateRequest } from './validate-request.ts';
import { CHAT_STEPS, type ChatStepName } from '../schemas/chat-steps.ts';
import { createPipeline, type Step } from '../src/pipeline/runner.ts';

/** Each declared step's function; a missing or extra name is a type error. */
const STEP_FUNCTIONS: Readonly<Record<ChatStepName, Step>> = {
  receiveRequest,
  validateRequest,
  loadSession,
  chooseLanguage,
  trimHistory,
  reuseCachedReply,
  askEngine,
  answerFromPropertyApi,
  formatReply,
  translateReply,
  extractContact,
  decideHandoff,
  updateConversation,
  storeQuestion,
  startHandoff,
  storeAnswer,
  rememberTurn,
  assembleResponse,
};

/**
 * The steps in the order schemas/chat-steps.ts declares them (docs/api.md#what-a-chat-does-in-order;
 * steps/README.md maps the ten rules to these steps). Each step's function name is its name in
 * latency figures, logs and spans, so it must be the declared name: checked here, once, at load.
 */
export const chatSteps: readonly Step[] = CHAT_STEPS.map(({ name }) => {
  const step = STEP_FUNCTIONS[name];
  if (step.name !== name) throw new TypeError(`step '${name}' is the function '${step.name}': its function name must be its declared name`);
  return step;
});

export const chatPipeline = createPipeline(chatSteps);
