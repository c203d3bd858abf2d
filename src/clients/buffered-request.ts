/**
 * One HTTP exchange whose answer is read whole, within a byte ceiling, through undici's `dispatch`
 * (its handler API) rather than `request`: no Readable stream, request handler or async iterator
 * is built for the answer, only its chunks are kept. For the answers of a chat (the engine's, the
 * GraphQL API's), measured with `npm run bench:clients`, that is about 8 µs of CPU less per call
 * (docs/performance.md). A call that reads its answer as it arrives (a streamed engine answer)
 * keeps using `request`, and so does a handoff delivery, whose status alone is its answer.
 *
 * It behaves as `request` followed by reading the body: the same errors for the same failures
 * (the call timer's reason for a timeout, before or during the answer; undici's own error for a
 * refused or reset connection; undici's argument errors for a request it cannot send), so the
 * callers classify them as before (call-failure.ts).
 */
import type { Dispatcher } from 'undici';
import type { CallTimer } from './call-timer.ts';
import { AnswerBoundError } from './json-answer.ts';

type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

export interface BufferedRequest {
  readonly origin: string;
  readonly path: string;
  readonly method: Dispatcher.HttpMethod;
  readonly headers: Record<string, string>;
  readonly body: string | null;
  /** The call's timeout: the call timer (call-timer.ts), or an AbortSignal. */
  readonly signal?: CallTimer['signal'] | AbortSignal | undefined;
  /** The largest answer read (docs/api.md#limits): a larger one, announced or arriving, is an AnswerBoundError. */
  readonly maxBytes: number;
  /**
   * Whether the answer of this status is wanted. Another status's answer is discarded as it
   * arrives (its text is empty); one longer than `maxBytes` ends the connection instead of being
   * read to its end, and the status is still answered.
   */
  readonly wantsText: (status: number) => boolean;
  /** Told the status as soon as it arrives, before the answer is read (e.g. for the call's span). */
  readonly onStatus?: (status: number) => void;
}

export interface BufferedAnswer {
  readonly statusCode: number;
  /** undici's parsed headers: lower-case names. */
  readonly headers: IncomingHttpHeaders;
  /** The answer as UTF-8 text; empty when its status was not wanted. */
  readonly text: string;
}

/** The call timer is an emitter (call-timer.ts says why); an AbortSignal is an event target. */
interface TimerSignal {
  on(event: 'abort', listener: () => void): unknown;
  removeListener(event: 'abort', listener: () => void): unknown;
  readonly reason?: unknown;
}

/** Calls `listener` once the signal fires (at once when it already has); returns its removal. */
function onAbort(signal: CallTimer['signal'] | AbortSignal, listener: () => void): () => void {
  if (signal instanceof EventTarget) {
    if (signal.aborted) listener();
    else signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  const timer = signal as unknown as TimerSignal;
  timer.on('abort', listener);
  return () => timer.removeListener('abort', listener);
}

class BufferedAnswerHandler implements Dispatcher.DispatchHandler {
  readonly #request: BufferedRequest;
  readonly #resolve: (answer: BufferedAnswer) => void;
  readonly #reject: (err: unknown) => void;
  readonly #signal: { readonly reason?: unknown } | undefined;
  readonly #stopListening: (() => void) | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  /** The timer fired before undici handed the request a connection: aborted as soon as it does. */
  #abortedEarly: Error | undefined = undefined;
  #settled = false;
  #statusCode = 0;
  #headers: BufferedAnswer['headers'] = {};
  #keep = false;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(request: BufferedRequest, resolve: (answer: BufferedAnswer) => void, reject: (err: unknown) => void) {
    this.#request = request;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#signal = request.signal as { readonly reason?: unknown } | undefined;
    this.#stopListening = request.signal === undefined ? undefined : onAbort(request.signal, this.#onAbort);
  }

  readonly #onAbort = (): void => {
    const reason = this.#signal?.reason as Error;
    if (this.#controller === undefined) this.#abortedEarly = reason;
    else this.#controller.abort(reason);
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abortedEarly !== undefined) controller.abort(this.#abortedEarly);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // 1xx: the answer is still to come
    this.#statusCode = statusCode;
    this.#headers = headers;
    this.#keep = this.#request.wantsText(statusCode);
    this.#request.onStatus?.(statusCode);
    const announced = headers['content-length'];
    if (typeof announced === 'string' && Number(announced) > this.#request.maxBytes) this.#overCeiling(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.#request.maxBytes) return this.#overCeiling(controller);
    if (this.#keep) this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    const chunks = this.#chunks;
    const text = chunks.length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, this.#bytes).toString('utf8');
    this.#settle();
    this.#resolve({ statusCode: this.#statusCode, headers: this.#headers, text });
  }

  /** Also called, with no controller, when undici refuses the request before sending it. */
  onResponseError(_controller: unknown, err: Error): void {
    if (this.#settled) return;
    this.#settle();
    this.#reject(err);
  }

  /** A wanted answer over the ceiling is an error; an unwanted one is only not read further. */
  #overCeiling(controller: Dispatcher.DispatchController): void {
    const keep = this.#keep;
    this.#settle();
    this.#chunks = [];
    if (keep) this.#reject(new AnswerBoundError(`answer over ${this.#request.maxBytes} bytes`));
    else this.#resolve({ statusCode: this.#statusCode, headers: this.#headers, text: '' });
    controller.abort(new AnswerBoundError('answer not read past its ceiling'));
  }

  #settle(): void {
    this.#settled = true;
    this.#stopListening?.();
  }
}

/** The exchange, answered once the whole answer has arrived (or rejected: see the module comment). */
export function requestBuffered(dispatcher: Dispatcher, request: BufferedRequest): Promise<BufferedAnswer> {
  return new Promise((resolve, reject) => {
    const handler = new BufferedAnswerHandler(request, resolve, reject);
    dispatcher.dispatch({ origin: request.origin, path: request.path, method: request.method, headers: request.headers, body: request.body }, handler);
  });
}
