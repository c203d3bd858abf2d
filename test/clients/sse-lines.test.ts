/**
 * The engine event-stream line splitter (src/clients/sse-lines.ts): however a stream is cut into
 * chunks, the same events come out, for CR, LF and CRLF line ends and a final event ending in a
 * lone CR; a long line costs work linear in its length, whatever the chunk size.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseLines } from '../../src/clients/sse-lines.ts';

/** The events of a whole stream, parsed at once by a plain reference (WHATWG event-stream rules). */
function referenceEvents(stream: string): string[] {
  const lines = stream.split(/\r\n|\r|\n/);
  lines.pop(); // the unterminated tail is no line
  const events: string[] = [];
  let data: string[] = [];
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) events.push(data.join('\n'));
      data = [];
    } else if (line.startsWith('data:')) {
      data.push(line.startsWith('data: ') ? line.slice(6) : line.slice(5));
    }
  }
  return events;
}

function eventsOf(chunks: readonly string[]): string[] {
  const lines = new SseLines();
  const events: string[] = [];
  for (const chunk of chunks) lines.push(chunk, (data) => events.push(data));
  return events;
}

/** The stream cut at the given offsets (sorted, deduplicated, inside the text). */
function cut(stream: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((o) => o % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(stream.slice(from, point));
    from = point;
  }
  chunks.push(stream.slice(from));
  return chunks;
}

const lineEnd = fc.constantFrom('\r', '\n', '\r\n');
const text = fc.string({ unit: fc.constantFrom('a', 'é', ' ', ':', 'd', '{', '"', '😀'), maxLength: 12 });
const line = fc.oneof(
  text.map((t) => `data: ${t}`),
  text.map((t) => `data:${t}`),
  text.map((t) => `: ${t}`),
  text.map((t) => `id: ${t}`),
  fc.constant(''),
);
/** A stream of lines, each with its own line end, sometimes followed by an unterminated tail. */
const stream = fc
  .tuple(fc.array(fc.tuple(line, lineEnd), { maxLength: 14 }), fc.option(text, { nil: undefined }))
  .map(([lines, tail]) => lines.map(([l, end]) => l + end).join('') + (tail === undefined ? '' : `data: ${tail}`));

describe('SseLines', () => {
  it('gives the events of the whole stream however it is cut into chunks', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 10 }), (s, offsets) => {
        expect(eventsOf(cut(s, offsets))).toEqual(referenceEvents(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same events for every single split and for one character at a time', () => {
    fc.assert(
      fc.property(stream, (s) => {
        const whole = referenceEvents(s);
        for (let at = 0; at <= s.length; at += 1) expect(eventsOf([s.slice(0, at), s.slice(at)])).toEqual(whole);
        expect(eventsOf([...s])).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('dispatches a final event ending in a lone CR without waiting for more text', () => {
    for (const chunks of [['data: {"done":true}\r\r'], ['data: {"done":true}\r', '\r'], ['data: {"done":', 'true}\r\r']]) {
      expect(eventsOf(chunks)).toEqual(['{"done":true}']);
    }
  });

  it('treats a CR and an LF in the next chunk as one CRLF, not as an empty line', () => {
    expect(eventsOf(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual(['a\nb']);
    expect(eventsOf(['data: a\r', '\n', '\n'])).toEqual(['a']);
  });

  it('joins multi-line data with LF whatever the line ends', () => {
    expect(eventsOf(['data: one\r\ndata:two\rdata: three\n\n'])).toEqual(['one\ntwo\nthree']);
  });

  it('refuses a line longer than its ceiling, even when it arrives in small chunks', () => {
    const lines = new SseLines(100, () => new Error('too long'));
    expect(() => {
      for (let i = 0; i < 20; i += 1) lines.push('data: 0123456', () => undefined);
    }).toThrow('too long');
  });

  it('does work linear in a long line cut into 16-character chunks (twice the text, about twice the time)', () => {
    const run = (chars: number): number => {
      const chunk = 'x'.repeat(16);
      const chunks = chars / 16;
      const lines = new SseLines(4 * 1024 * 1024);
      const events: string[] = [];
      const started = performance.now();
      lines.push('data: ', () => undefined);
      for (let i = 0; i < chunks; i += 1) lines.push(chunk, () => undefined);
      lines.push('\n\n', (data) => events.push(data));
      const ms = performance.now() - started;
      expect(events[0]).toHaveLength(chars);
      return ms;
    };
    // The fastest of several runs of each size (the machine is shared); a quadratic splitter takes
    // about four times as long for twice the text (seconds for 250 KB), a linear one about twice.
    const fastest = (chars: number) => Math.min(...Array.from({ length: 7 }, () => run(chars)));
    run(256_000); // warm-up
    const single = fastest(256_000);
    const double = fastest(512_000);
    expect(double / single).toBeLessThan(3);
    expect(single).toBeLessThan(250);
  });
});
