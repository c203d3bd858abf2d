/** Types of stream.js (plain JavaScript, so the browser loads it as is, with no build step). */
export interface StreamView {
  onStart?: (messageId: string) => void;
  onStep?: (name: string, ms: number) => void;
  onText?: (textSoFar: string) => void;
}
export interface StreamOutcome {
  answer: any;
  errorText: string | undefined;
  /** The visitor stopped the reply: the text they got. */
  stopped?: { text: string };
}
export const EVENT_STREAM: string;
export function readReplyStream(body: ReadableStream<Uint8Array>, view: StreamView): Promise<StreamOutcome>;
