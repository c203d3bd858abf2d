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
import { createPipeline } from '../src/pipeline/runner.ts';

/**
 * docs/api.md#what-a-chat-does-in-order, in order (steps/README.md maps the ten rules to these steps). Each step's function name
 * is its name in latency figures, logs and spans.
 */
export const chatSteps = [
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
] as const;

export const chatPipeline = createPipeline(chatSteps);
