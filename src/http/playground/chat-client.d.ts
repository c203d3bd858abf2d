/** Types of chat-client.js (plain JavaScript, so the browser loads it as is, with no build step). */
import type { StreamView } from './stream.js';

export interface Problem {
  short: string;
  long: string;
  retryable: boolean;
  /** The message reached the service, which then failed while answering it. */
  sent?: boolean;
  /** The failed answer's trace id (its `traceresponse` header). */
  traceId?: string;
}
export type ChatResult = { ok: true; answer: any } | { ok: false; problem: Problem };
export type ChatView = StreamView & { stream?: boolean };
export const MAX_MESSAGE_CHARS: number;
export const UNREACHABLE: Problem;
export const CUT_OFF: Problem;
export function traceIdOf(header: string | null): string | undefined;
export function describeFailure(status: number, body: unknown, retryAfter: string | null): Problem;
export function describeBrokenReply(errorText: string): Problem;
export function postChat(body: Record<string, unknown>, headers: Record<string, string>, view?: ChatView): Promise<ChatResult>;
