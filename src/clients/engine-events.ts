/**
 * The engine's event stream (docs/api.md#streamed-replies): JSON events `{"delta": "<text>"}`, then one
 * `{"done": true, ...}` holding every member of the 3.1 answer but `response`, which is the
 * deltas joined. An engine may name the reply's `retrieval_type` (and `language`) on its first
 * event, before any text: the service then knows the formatting rule while the text arrives, and
 * the final answer must agree with what was named.
 */
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { RETRIEVAL_TYPES as KNOWN_RETRIEVAL_TYPES } from '../../schemas/chat-response.schema.ts';
import type { EngineReply, EngineReplySchema } from '../../schemas/engine.schema.ts';
import { DownstreamError } from '../errors.ts';
import type { EngineAnnouncement, EngineTextListener } from '../pipeline/ports.ts';
import { parseBoundedJson } from './json-answer.ts';

const RETRIEVAL_TYPES: ReadonlySet<unknown> = new Set(KNOWN_RETRIEVAL_TYPES);

const outOfContract = (why: string) => new DownstreamError('engine', `event stream out of contract: ${why}`);
const english = (language: unknown) => (language === 'es' ? 'es' : 'en');

function announcementOf(event: Record<string, unknown>): EngineAnnouncement | undefined {
  if (!RETRIEVAL_TYPES.has(event['retrieval_type'])) return undefined;
  const language = event['language'];
  return { retrieval_type: event['retrieval_type'] as EngineAnnouncement['retrieval_type'], language: typeof language === 'string' ? language : undefined };
}

/** Reads the events of one answer; `done` is set once the final event arrived. */
export class EngineEvents {
  readonly #reply: TypeCheck<typeof EngineReplySchema>;
  readonly #onText: EngineTextListener;
  readonly #deltas: string[] = [];
  #announced: EngineAnnouncement | undefined;
  #first = true;
  /** `performance.now()` of the first text, for the time to first chunk. */
  firstTextAt: number | undefined;
  done: EngineReply | undefined;

  constructor(reply: TypeCheck<typeof EngineReplySchema>, onText: EngineTextListener) {
    this.#reply = reply;
    this.#onText = onText;
  }

  /** One event's data; throws DownstreamError when it is out of contract. */
  take(data: string, now: number): void {
    if (this.done !== undefined) return;
    let event: unknown;
    try {
      event = parseBoundedJson(data);
    } catch {
      throw outOfContract('an event is not JSON');
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) throw outOfContract('an event is not an object');
    const fields = event as Record<string, unknown>;
    if (this.#first) {
      this.#first = false;
      this.#announced = announcementOf(fields);
    }
    if (fields['done'] === true) {
      this.done = this.#final(fields);
      return;
    }
    const delta = fields['delta'];
    if (typeof delta !== 'string') throw outOfContract('an event has neither a text delta nor done');
    this.#deltas.push(delta);
    if (delta === '') return;
    this.firstTextAt ??= now;
    this.#onText(delta, this.#announced);
  }

  #final(fields: Record<string, unknown>): EngineReply {
    const { done: _done, ...members } = fields;
    const answer = { ...members, response: this.#deltas.join('') };
    if (!this.#reply.Check(answer)) {
      const first = this.#reply.Errors(answer).First();
      throw outOfContract(`the done event at '${first?.path ?? ''}'`);
    }
    const named = this.#announced;
    if (named !== undefined && (named.retrieval_type !== answer.retrieval_type || english(named.language) !== english(answer.language))) {
      throw outOfContract('the done event contradicts the retrieval type or language named first');
    }
    return answer;
  }
}
