/** Types of chat-client.js (plain JavaScript, so the browser loads it as is, with no build step). */
export interface Problem {
  short: string;
  long: string;
  retryable: boolean;
}
export type ChatResult = { ok: true; answer: any } | { ok: false; problem: Problem };
export const MAX_MESSAGE_CHARS: number;
export const UNREACHABLE: Problem;
export function describeFailure(status: number, body: unknown, retryAfter: string | null): Problem;
export function postChat(body: Record<string, unknown>, headers: Record<string, string>): Promise<ChatResult>;
