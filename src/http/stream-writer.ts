/**
 * The AI SDK UI message stream, protocol v1 (docs/api.md#streamed-replies), written on the raw response: each part
 * is one server-sent event `id: <n>` / `data: <JSON>` written to the socket the moment it is made (no
 * buffering, no compression), and the stream ends with `data: [DONE]`. Part shapes are the `ai`
 * package's `UIMessageChunk` (test/http/ai-sdk-client.test.ts checks them with its own reader). With a stream log
 * (src/streams/), every part is also kept there under the same id, for resumers
 * (docs/api.md#resuming-a-streamed-reply); the log gets the parts whether or not the caller stayed.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { StreamEnd, StreamLogWriter } from '../streams/stream-log.ts';

export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const TEXT_ID = 'reply';

export class UiMessageStreamWriter {
  readonly #res: ServerResponse;
  #textStarted = false;
  #textEnded = false;
  #released = '';
  #ended = false;
  #lastId = 0;
  readonly #log: StreamLogWriter | undefined;
  /** The caller closed the connection before the stream ended. */
  clientGone = false;
  /** `performance.now()` when the first reply text was written. */
  firstTextAt: number | undefined;

  /** `headers`: those the route already set (rate limits, ...), written with the protocol's own. */
  constructor(res: ServerResponse, headers: Readonly<Record<string, string | number | string[] | undefined>> = {}, log?: StreamLogWriter) {
    this.#res = res;
    this.#log = log;
    // A caller may leave while the chat waits for its turn, before the stream opens.
    if (res.destroyed || res.socket === null || res.socket.destroyed) this.clientGone = true;
    res.on('close', () => {
      if (!this.#ended) this.clientGone = true;
    });
    res.writeHead(200, { ...headers, ...UI_MESSAGE_STREAM_HEADERS } as OutgoingHttpHeaders);
  }

  /** Writes one part; `json` is the part already serialized (e.g. to splice in a serialized answer). */
  #write(json: string, transient = false): void {
    if (this.#ended) return;
    const id = ++this.#lastId;
    // Progress parts are not part of the message (transient): a resumer does without them.
    if (!transient) this.#log?.append(id, json, false);
    if (this.clientGone) return;
    this.#res.write(`id: ${id}\ndata: ${json}\n\n`);
  }

  part(part: object, transient = false): void {
    this.#write(JSON.stringify(part), transient);
  }

  /** The reply text written so far (what the visitor saw). */
  get releasedText(): string {
    return this.#released;
  }

  start(messageId: string): void {
    this.part({ type: 'start', messageId });
  }

  /** A progress part: not kept in the message (`transient`). */
  step(name: string, ms: number): void {
    this.part({ type: 'data-step', data: { name, ms }, transient: true }, true);
  }

  /** Reply text as it becomes final (the start of the answer's `response`, in order). */
  text(delta: string, now: number): void {
    if (delta === '' || this.#textEnded) return;
    if (!this.#textStarted) {
      this.#textStarted = true;
      this.part({ type: 'text-start', id: TEXT_ID });
    }
    this.firstTextAt ??= now;
    this.#released += delta;
    this.part({ type: 'text-delta', id: TEXT_ID, delta });
  }

  /**
   * The whole reply is known: writes what was not released yet and ends the text part. False when
   * the text released earlier is not the start of `response` (a defect: then nothing more is written).
   */
  completeText(response: string, now: number): boolean {
    if (this.#textEnded) return true;
    const consistent = response.startsWith(this.#released);
    if (consistent) this.text(response.slice(this.#released.length), now);
    this.endText();
    return consistent;
  }

  /** Ends the text part (also when no text was written: the message then has an empty text). */
  endText(): void {
    if (this.#textEnded) return;
    if (!this.#textStarted) this.part({ type: 'text-start', id: TEXT_ID });
    this.#textStarted = true;
    this.#textEnded = true;
    this.part({ type: 'text-end', id: TEXT_ID });
  }

  /** The complete JSON chat answer, spliced in as the route serialized it (the bytes a JSON caller gets). */
  chat(serializedAnswer: string): void {
    this.#write(`{"type":"data-chat","data":${serializedAnswer}}`);
  }

  error(errorText: string): void {
    if (this.#textStarted) this.endText();
    this.part({ type: 'error', errorText });
  }

  /** `finish` and `[DONE]`, then the response ends. */
  finish(failed = false): void {
    this.part(failed ? { type: 'finish', finishReason: 'error' } : { type: 'finish', finishReason: 'stop' });
    this.#end(failed ? 'failed' : 'finished');
  }

  /** A stopped reply (docs/api.md#stopping-a-streamed-reply): its text ends, then the protocol's `abort` part and `[DONE]`. */
  abort(): void {
    if (this.#textStarted) this.endText();
    this.part({ type: 'abort', reason: 'stopped' });
    this.#end('aborted');
  }

  /** Settles once the stream log kept the end (resumers see it); the caller's response is already ended then. */
  logged: Promise<void> = Promise.resolve();

  #end(kind: StreamEnd): void {
    if (this.#ended) return;
    if (!this.clientGone) this.#res.end('data: [DONE]\n\n');
    this.#ended = true;
    if (this.#log !== undefined) this.logged = this.#log.end(kind);
  }
}
