/** Chats of one session whose engine answers come slower the earlier they were sent (tests of docs/api.md#one-turn-at-a-time-per-session). */
import { engineReply } from './fixtures.ts';
import { sendJson, type StubHandler } from './stub-server.ts';
import type { StubbedService } from './stubbed-service.ts';

/** Questions whose engine answer comes slower the earlier they are sent (the first one slowest). */
export const QUESTIONS = [
  'Is there covered parking for residents?',
  'Can I paint the walls of my apartment?',
  'Where do I pick up my packages?',
  'Is the swimming pool heated in winter?',
];
export const answerTo = (question: string) => `Answer to: ${question}`;
export const firstSlowest: StubHandler = (req, res) => {
  const message = String((req.body as { message: string }).message);
  const position = QUESTIONS.indexOf(message);
  const delay = position < 0 ? 0 : (QUESTIONS.length - position) * 150;
  setTimeout(() => sendJson(res, 200, engineReply({ response: answerTo(message), follow_up: '' })), delay);
};

type GraphqlBody = { query: string; variables: { input: Record<string, unknown> } };
/** What the GraphQL stub was asked to store for one session, in the order it received it. */
export function storedConversation(svc: StubbedService, sessionId: string): string[] {
  return svc.stubs.graphql.requests
    .map((r) => r.body as GraphqlBody)
    .filter((b) => b.query.includes('createServiceMessage') && b.variables.input['sessionId'] === sessionId)
    .map((b) => `${String(b.variables.input['role'])}: ${String(b.variables.input['content'])}`);
}
export const inArrivalOrder = QUESTIONS.flatMap((q) => [`USER: ${q}`, `ASSISTANT: ${answerTo(q)}`]);
