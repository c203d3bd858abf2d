/**
 * The load of a cluster run: many sessions at once, each sending its messages in order with some
 * overlap: the next message of a session is sent as soon as the engine has been asked the previous
 * one (so it arrives while the previous one is still being answered, and must wait its turn), or
 * once the previous one is answered, whichever comes first.
 */
import type { ChatAnswer, Cluster } from './cluster.ts';
import { answerTo } from './stub-parties.ts';
import { newSessionId } from '../helpers/fixtures.ts';

const TOPICS = [
  'is there covered parking for residents?',
  'can I paint the walls of my apartment?',
  'where do I pick up my packages?',
  'is the swimming pool heated in winter?',
  'how do I submit a maintenance request?',
  'are washers and dryers included in the units?',
];

export interface Conversation {
  readonly sessionId: string;
  readonly messages: readonly string[];
  readonly answers: readonly ChatAnswer[];
}

export interface ConversationRun {
  readonly conversations: readonly Conversation[];
  readonly wallMs: number;
}

async function converse(cluster: Cluster, index: number, perSession: number): Promise<Conversation> {
  const sessionId = newSessionId();
  const messages = Array.from({ length: perSession }, (_, k) => `Session ${index + 1}, question ${k + 1}: ${TOPICS[(index + k) % TOPICS.length]}`);
  const pending: Promise<ChatAnswer>[] = [];
  for (const message of messages) {
    const answer = cluster.chat({ session_id: sessionId, message });
    pending.push(answer);
    await Promise.race([cluster.parties.engine.asked(message), answer]);
  }
  return { sessionId, messages, answers: await Promise.all(pending) };
}

/** `sessions` conversations of `perSession` messages, `parallel` sessions at a time. */
export async function runConversations(cluster: Cluster, sessions: number, perSession: number, parallel: number): Promise<ConversationRun> {
  const started = performance.now();
  const conversations: Conversation[] = [];
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < sessions; index = next++) conversations[index] = await converse(cluster, index, perSession);
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return { conversations, wallMs: performance.now() - started };
}

/** The conversation the store must hold for `c`: Q1 A1 Q2 A2 ... in send order. */
export const expectedLines = (c: Conversation) => c.messages.flatMap((m) => [`USER: ${m}`, `ASSISTANT: ${answerTo(m)}`]);
