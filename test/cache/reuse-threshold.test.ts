/**
 * The similarity measure and its threshold, as the reuse rule applies them: symmetric, within 0..1,
 * 1 exactly for texts equal after normalisation, and a one-word change that no guard sees refused
 * whenever the score is under the threshold (in a question of 30 words as in one of 5).
 *
 * Equivalent mutants (StrykerJS, `npm run test:mutation -- cache`), not killable:
 * - similarity.ts `tokens[i] ?? ''`: inside the loop every token exists.
 * - similarity.ts counts `- 1` instead of `+ 1`: every count changes sign, and a cosine does not.
 * - similarity.ts the choice of the smaller map to walk (four mutants): a dot product is symmetric.
 * - similarity.ts the shortcut for texts equal after normalisation, and the word-only shortcut (four
 *   mutants): both only skip work whose result they already know (the property test below checks it).
 * - reuse-policy.ts `entry.answers.length === 0` -> false, and `threshold <= 1` -> true: the loop then
 *   finds nothing anyway (no answers; no score reaches a threshold over 1 or NaN).
 * - reuse-policy.ts `length - 1` -> `length + 1` and `candidate === undefined` -> false: indexes past
 *   the end read undefined and are skipped; inside it no answer is undefined.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineReply } from '../../schemas/engine.schema.ts';
import { findReusableAnswer } from '../../src/cache/reuse-policy.ts';
import { profileQuestion, sameQuestion, similarity, SIMILARITY_THRESHOLD } from '../../src/cache/similarity.ts';

const reply: EngineReply = { response: 'The reply', intent: 'faq', sub_intent: 'general', retrieval_type: 'rag' };
const reuses = (earlier: string, now: string, threshold = SIMILARITY_THRESHOLD) =>
  findReusableAnswer({ messages: [], answers: [{ question: earlier, reply, at: 0 }] }, now, threshold) !== undefined;

/** 31 words, none of them a guard word, with one slot. */
const thirtyOne = (side: string) =>
  `could you please tell me whether the parking garage on the ${side} side of the building has spaces ` +
  'for visitors and whether guests need a permit from the leasing office or the concierge desk';

describe('similarity', () => {
  it('is symmetric and within 0..1 for any two texts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (a, b) => {
        const ab = similarity(a, b);
        expect(ab).toBe(similarity(b, a));
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('is symmetric and within 0..1 for texts that share most of their words', () => {
    const word = fc.constantFrom('pool', 'gym', 'parking', 'hours', 'open', 'rent', 'pets', 'the', 'is', 'when', 'a', 'lease');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 12 }), fc.array(word, { minLength: 1, maxLength: 12 }), (x, y) => {
        const a = x.join(' ');
        const b = [...x.slice(0, 6), ...y].join(' ');
        expect(similarity(a, b)).toBe(similarity(b, a));
        expect(similarity(a, b)).toBeGreaterThan(0);
        expect(similarity(a, b)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('is exactly 1 when the texts are equal after normalisation, and below 1 otherwise', () => {
    expect(similarity('Pool HOURS?', 'pool hours')).toBe(1);
    expect(similarity('pool hours', 'pool hour')).toBeLessThan(1);
    expect(similarity('pool hours today', 'pool hours')).toBeLessThan(1);
  });

  it('scores a plural, a typo or one other word as close but not the same (between 0.6 and 0.98)', () => {
    for (const [a, b] of [
      ['What are your office hours?', 'What are your office hour?'],
      ['Can I bring my pet when I move in?', 'Can I bring my pets when I move in?'],
      ['Where do I pick up my packages?', 'Where do I pick up my pakages?'],
      ['Is the gym open at night?', 'Is the pool open at night?'],
    ] as const) {
      expect(similarity(a, b), `${a} / ${b}`).toBeLessThan(SIMILARITY_THRESHOLD);
      expect(similarity(a, b), `${a} / ${b}`).toBeGreaterThan(0.6);
    }
  });
});

/** The measure as documented, written the plain way: cosine of unigram+bigram counts and of character trigrams, averaged. */
function referenceSimilarity(a: string, b: string): number {
  const counts = (features: string[]) => features.reduce((m, f) => m.set(f, (m.get(f) ?? 0) + 1), new Map<string, number>());
  const cosine = (x: Map<string, number>, y: Map<string, number>) => {
    let dot = 0;
    for (const [f, n] of x) dot += n * (y.get(f) ?? 0);
    const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((sum, n) => sum + n * n, 0));
    return norm(x) === 0 || norm(y) === 0 ? 0 : Math.min(1, dot / (norm(x) * norm(y)));
  };
  const words = (t: string) => { const w = t.split(' '); return [...w, ...w.slice(1).map((x, i) => `${w[i]} ${x}`)]; };
  const trigrams = (t: string) => { const p = ` ${t} `; return Array.from({ length: p.length - 2 }, (_, i) => p.slice(i, i + 3)); };
  if (a === b) return 1;
  return (cosine(counts(words(a)), counts(words(b))) + cosine(counts(trigrams(a)), counts(trigrams(b)))) / 2;
}

describe('the measure', () => {
  it('is the documented one: word unigrams and bigrams, character trigrams, two cosines averaged', () => {
    const word = fc.constantFrom('pool', 'gym', 'parking', 'hours', 'open', 'rent', 'pets', 'lease', 'a', 'is');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 10 }), fc.array(word, { minLength: 1, maxLength: 10 }), (x, y) => {
        expect(similarity(x.join(' '), y.join(' '))).toBeCloseTo(referenceSimilarity(x.join(' '), y.join(' ')), 12);
      }),
      { numRuns: 300 },
    );
    // By hand: words {a, b, "a b"} / {a, c, "a c"}: 1/3; trigrams " a ", "a b", " b " / " a ", "a c", " c ": 1/3.
    expect(similarity('a b', 'a c')).toBeCloseTo(1 / 3, 12);
  });
});

describe('the threshold in the reuse rule', () => {
  it('refuses a 31-word question with one word changed that no guard sees (north / south), under the threshold', () => {
    const score = similarity(thirtyOne('north'), thirtyOne('south'));
    expect(score).toBeLessThan(SIMILARITY_THRESHOLD);
    expect(score).toBeGreaterThan(0.9);
    expect(reuses(thirtyOne('north'), thirtyOne('south'))).toBe(false);
    // The same pair passes when the threshold is at its score: only the threshold refused it.
    expect(reuses(thirtyOne('north'), thirtyOne('south'), score)).toBe(true);
    expect(reuses(thirtyOne('north'), thirtyOne('north'))).toBe(true);
  });

  it('never lets a short reply reuse anything, even when only the guards would decide', () => {
    expect(reuses('could you tell me about the parking situation for visitors', 'ok thanks', 0)).toBe(false);
    expect(reuses('could you tell me about the parking situation for visitors', 'could you tell me about the parking situation for visitors', 0)).toBe(true);
  });

  it('reuses an answer kept without a language whatever language is asked for', () => {
    const q = 'could you tell me about the parking situation for visitors';
    const entry = { messages: [], answers: [{ question: q, reply, at: 0 }] };
    expect(findReusableAnswer(entry, q, SIMILARITY_THRESHOLD, { language: 'es' })).toBeDefined();
    expect(findReusableAnswer({ messages: [], answers: [{ question: q, reply, at: 0, language: 'en' as const }] }, q, SIMILARITY_THRESHOLD, { language: 'es' })).toBeUndefined();
  });

  it('sameQuestion agrees with the score on either side of the threshold, and at it', () => {
    const a = profileQuestion(thirtyOne('north'));
    const b = profileQuestion(thirtyOne('south'));
    const score = similarity(thirtyOne('north'), thirtyOne('south'));
    expect(sameQuestion(a, b, score)).toBe(true);
    expect(sameQuestion(a, b, score + 1e-9)).toBe(false);
    expect(sameQuestion(a, b, score - 1e-9)).toBe(true);
    // Equal texts score 1: the same question under any threshold up to 1, never above it.
    expect(sameQuestion(a, profileQuestion(thirtyOne('north')), 1)).toBe(true);
    expect(sameQuestion(a, profileQuestion(thirtyOne('north')), 1.01)).toBe(false);
  });

  it('skips nothing the full score would accept: the word-only shortcut never refuses a pair at or above the threshold', () => {
    const word = fc.constantFrom('pool', 'gym', 'parking', 'garage', 'hours', 'open', 'rent', 'pets', 'lease', 'laundry', 'office');
    fc.assert(
      fc.property(fc.array(word, { minLength: 4, maxLength: 30 }), fc.nat({ max: 29 }), word, fc.double({ min: 0.5, max: 1, noNaN: true }), (words, at, other, threshold) => {
        const changed = [...words];
        changed[at % words.length] = other;
        const a = words.join(' ');
        const b = changed.join(' ');
        expect(sameQuestion(profileQuestion(a), profileQuestion(b), threshold)).toBe(similarity(a, b) >= threshold);
      }),
      { numRuns: 300 },
    );
  });
});
