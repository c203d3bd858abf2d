/**
 * The playground's reader of a streamed reply (stream.js, loaded as the browser loads it), fed the
 * bytes the service's own stream writer produces, cut into chunks anywhere: in the middle of an
 * event, of a JSON string, of a multi-byte character.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readReplyStream } from '../../src/http/playground/stream.js';

const ANSWER = { response: 'Pets are welcome — two per home, café on site.', follow_up: '', sub_intent: 'pet_policy' };

/** A stream as the service writes it (stream-writer.ts): one `data: <JSON>` event per part. */
function events(parts: readonly (object | string)[]): Uint8Array {
  return new TextEncoder().encode(parts.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`).join(''));
}

const reply = (text: readonly string[]) => [
  { type: 'start', messageId: 'm:answer' },
  { type: 'data-step', data: { name: 'validateRequest', ms: 0.04 }, transient: true },
  { type: 'text-start', id: 'reply' },
  ...text.map((delta) => ({ type: 'text-delta', id: 'reply', delta })),
  { type: 'data-step', data: { name: 'askEngine', ms: 812.3 }, transient: true },
  { type: 'text-end', id: 'reply' },
  { type: 'data-chat', data: ANSWER },
  { type: 'finish', finishReason: 'stop' },
  '[DONE]',
];

/** The bytes as a body that arrives in pieces, cut at `cuts`. */
function body(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces = [0, ...at, bytes.length].slice(1).map((end, i, ends) => bytes.slice(i === 0 ? 0 : ends[i - 1], end));
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function read(bytes: Uint8Array, cuts: readonly number[] = []) {
  const steps: string[] = [];
  const texts: string[] = [];
  const outcome = await readReplyStream(body(bytes, cuts), {
    onStep: (name, ms) => steps.push(`${name} ${ms}`),
    onText: (text) => texts.push(text),
  });
  return { ...outcome, steps, texts };
}

describe('readReplyStream', () => {
  const words = ['Pets are ', 'welcome — ', 'two per home, ', 'café on site.'];

  it('tells each finished step and the text as it grows, and returns the data-chat answer', async () => {
    const { answer, errorText, steps, texts } = await read(events(reply(words)));
    expect(errorText).toBeUndefined();
    expect(answer).toEqual(ANSWER);
    expect(steps).toEqual(['validateRequest 0.04', 'askEngine 812.3']);
    expect(texts).toEqual(['Pets are ', 'Pets are welcome — ', 'Pets are welcome — two per home, ', ANSWER.response]);
  });

  it('reads the same, however the bytes are cut into chunks', async () => {
    const bytes = events(reply(words));
    const whole = await read(bytes);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (cuts) => {
        expect(await read(bytes, cuts)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('a failure after the stream started: the error part\'s text, and no answer', async () => {
    const parts = [
      { type: 'start', messageId: 'm:answer' },
      { type: 'data-step', data: { name: 'loadSession', ms: 1.2 }, transient: true },
      { type: 'error', errorText: 'engine unavailable' },
      { type: 'finish', finishReason: 'error' },
      '[DONE]',
    ];
    const { answer, errorText, steps } = await read(events(parts), [17, 60]);
    expect(answer).toBeUndefined();
    expect(errorText).toBe('engine unavailable');
    expect(steps).toEqual(['loadSession 1.2']);
  });

  it('a stream that ends without its answer says so', async () => {
    const { answer, errorText, texts } = await read(events(reply(words).slice(0, 4)));
    expect(answer).toBeUndefined();
    expect(errorText).toBe('the reply stream ended before the answer');
    expect(texts).toEqual(['Pets are ']);
  });

  it('a body that breaks off while reading rejects (the page then says the reply was cut off)', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(events(reply(words).slice(0, 3)));
        controller.error(new TypeError('network error'));
      },
    });
    await expect(readReplyStream(broken, {})).rejects.toThrow('network error');
  });
});
