/** Types of stream.js (plain JavaScript, so the browser loads it as is, with no build step). */
export interface StreamView {
  onStep?: (name: string, ms: number) => void;
  onText?: (textSoFar: string) => void;
}
export interface StreamOutcome {
  answer: any;
  errorText: string | undefined;
}
export const EVENT_STREAM: string;
export function readReplyStream(body: ReadableStream<Uint8Array>, view: StreamView): Promise<StreamOutcome>;
