/** Types of stream.js (plain JavaScript, so the browser loads it as is, with no build step). */
export interface ChatView {
  onStep?: (name: string, ms: number) => void;
  onText?: (textSoFar: string) => void;
}
export interface ChatResult {
  status: number;
  ok: boolean;
  answer: any;
  errorText: string | undefined;
}
export function requestChat(headers: Record<string, string>, body: unknown, view: ChatView): Promise<ChatResult>;
