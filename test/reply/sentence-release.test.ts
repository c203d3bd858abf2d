/**
 * What a streaming caller sees while the engine writes must be the start of the reply the JSON
 * caller gets: every released piece, joined, opens concise(whole text), pieces are whole sentences,
 * and nothing passes the 500-character rule, however the text is cut into deltas.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONCISE_MAX_CHARS, concise } from '../../src/reply/reply-styles.ts';
import { SentenceRelease } from '../../src/reply/sentence-release.ts';

function released(deltas: readonly string[]): string[] {
  const out: string[] = [];
  const release = new SentenceRelease((text) => out.push(text));
  for (const delta of deltas) release.push(delta);
  return out;
}

/** Cuts `text` at the given fractions into consecutive deltas. */
function cut(text: string, at: readonly number[]): string[] {
  const points = [...new Set(at.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const p of points) {
    parts.push(text.slice(from, p));
    from = p;
  }
  parts.push(text.slice(from));
  return parts;
}

const words = ['Hello', 'the', 'pool', 'opens', 'at', '9', 'a.m', 'Dr', 'Smith', 'St', 'e.g', '1', '12', 'rent', 'is', '$1,200', 'café', 'ok', '😀'];
const marks = ['.', '!', '?', '…', ',', '', '', ''];
const spaces = [' ', ' ', ' ', '  ', '\n', '\n\n', '\t', '\r\n', '\u00a0'];
const markup = ['*', '**', '_', '`', '[', '](x)', '#', '> ', '- ', '1. ', '~~'];

/** Plain text in sentence-like runs, sometimes with markup or list openings. */
const replyText = (withMarkup: boolean) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom(...words),
        fc.constantFrom(...marks),
        fc.constantFrom(...spaces),
        withMarkup ? fc.option(fc.constantFrom(...markup), { freq: 6 }) : fc.constant(null),
      ),
      { maxLength: 220 },
    )
    .map((runs) => runs.map(([w, m, s, k]) => `${k ?? ''}${w}${m}${s}`).join(''));

describe('sentence release (concise rule while text arrives)', () => {
  it('releases only the start of the final concise reply, in whole sentences under the limit', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean().chain((m) => replyText(m)), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }), (_, text, at) => {
        const pieces = released(cut(text, at));
        const joined = pieces.join('');
        const final = concise(text);
        expect(final.startsWith(joined)).toBe(true);
        expect(joined.length).toBeLessThanOrEqual(CONCISE_MAX_CHARS);
        for (const piece of pieces) expect(piece).toMatch(/[.!?…]$/);
      }),
      { numRuns: 3000 },
    );
  });

  it('releases a long plain reply sentence by sentence before it is complete, up to the limit', () => {
    const sentence = 'The rooftop pool is open from nine in the morning until ten at night every day.';
    const text = Array.from({ length: 12 }, () => sentence).join(' ');
    const pieces = released(text.split(/(?<= )/));
    expect(pieces[0]).toBe(sentence);
    expect(pieces.slice(1).every((p) => p === ` ${sentence}`)).toBe(true);
    const joined = pieces.join('');
    expect(joined).toBe(concise(text));
    expect(joined.length).toBeLessThanOrEqual(CONCISE_MAX_CHARS);
    expect(joined.length).toBeGreaterThan(CONCISE_MAX_CHARS - sentence.length - 1);
  });

  it('holds back a sentence until the white space after it arrives, and keeps abbreviations inside', () => {
    const out: string[] = [];
    const release = new SentenceRelease((text) => out.push(text));
    release.push('Tours with Dr. Smith start at 9 a.m. daily.');
    expect(out).toEqual([]);
    release.push(' More');
    expect(out).toEqual(['Tours with Dr. Smith start at 9 a.m. daily.']);
  });

  it('stops at markup, so that what the formatter rewrites is written once the reply is complete', () => {
    expect(released(['Hello there. ', 'See **this** now. ', 'And more. '])).toEqual(['Hello there.']);
    expect(released(['Intro line.\n', '- first item.\n', '- second. '])).toEqual(['Intro line.']);
  });

  it('does linear work on a long reply without sentence ends', () => {
    const started = performance.now();
    const release = new SentenceRelease(() => {});
    for (let i = 0; i < 100_000; i++) release.push(i % 2 === 0 ? 'word' : ' ');
    expect(release.releasing).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
