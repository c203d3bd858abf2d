/**
 * When may a new message reuse an earlier reply of the same session? (docs/api.md#session-cache)
 *
 * Measure: both texts are normalised (normalise-text.ts: case, punctuation, spacing and accents folded,
 * contractions expanded, numbers canonical), then compared twice with cosine similarity and the two
 * figures averaged:
 *   - words: counts of word unigrams and bigrams (bigrams make word order count);
 *   - character trigrams of the normalised text padded with a space (tolerates a typo or a plural
 *     in a long question, which whole words alone would punish as hard as a different word).
 * Why this measure: it is deterministic, needs no model or corpus, is cheap (get + rule against 4
 * earlier questions: about 45 µs, scripts/bench-cache.ts), and its value is easy to reason about next
 * to the threshold.
 * Texts that are equal after normalisation score exactly 1.
 *
 * The 0.98 threshold (docs/api.md#limits) with this measure means "the same question". Measured: "office hours" /
 * "office hour" in a 5-word question 0.86; two words swapped in an 8-word question 0.92; one word
 * replaced in a 15-word question 0.93, in a 40-word one just under 0.98; a one-letter typo in a 15-word
 * question 0.94, in a 40-word one 0.98. So only differences that normalisation removes (case, punctuation,
 * spacing, accents, "don't" / "do not") hit in everyday questions; a one-word change slips under the
 * threshold only in questions of about 40 words, and the guards below veto the changes that matter
 * (numbers, negations, dates, unit types) whatever the score.
 */
import { normalisedTokens } from './normalise-text.ts';
import { guardTerms, isShortMessage, sameGuardTerms, type GuardTerms } from './question-guards.ts';

export const SIMILARITY_THRESHOLD = 0.98;

interface Vector { counts: Map<string, number>; norm: number }

/** Everything about one question that the rule compares; the vectors are built only when needed. */
export interface QuestionProfile {
  readonly normalised: string;
  readonly tokens: readonly string[];
  readonly short: boolean;
  readonly guards: GuardTerms;
  words?: Vector;
  trigrams?: Vector;
}

function vector(features: Iterable<string>): Vector {
  const counts = new Map<string, number>();
  for (const feature of features) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  let squares = 0;
  for (const count of counts.values()) squares += count * count;
  return { counts, norm: Math.sqrt(squares) };
}

function* wordFeatures(tokens: readonly string[]): Generator<string> {
  for (let i = 0; i < tokens.length; i += 1) {
    yield tokens[i] ?? '';
    if (i > 0) yield `${tokens[i - 1]} ${tokens[i]}`;
  }
}

function* trigramFeatures(normalised: string): Generator<string> {
  const padded = ` ${normalised} `;
  for (let i = 0; i + 3 <= padded.length; i += 1) yield padded.slice(i, i + 3);
}

const wordsOf = (p: QuestionProfile): Vector => (p.words ??= vector(wordFeatures(p.tokens)));
const trigramsOf = (p: QuestionProfile): Vector => (p.trigrams ??= vector(trigramFeatures(p.normalised)));

function cosine(a: Vector, b: Vector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  const [small, large] = a.counts.size <= b.counts.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [feature, count] of small.counts) dot += count * (large.counts.get(feature) ?? 0);
  return Math.min(1, dot / (a.norm * b.norm)); // float rounding could give 1.0000000000000002
}

export function profileQuestion(text: string): QuestionProfile {
  const tokens = normalisedTokens(text);
  return { normalised: tokens.join(' '), tokens, short: isShortMessage(tokens), guards: guardTerms(tokens) };
}

export function profileSimilarity(a: QuestionProfile, b: QuestionProfile): number {
  if (a.normalised === b.normalised) return 1;
  return (cosine(wordsOf(a), wordsOf(b)) + cosine(trigramsOf(a), trigramsOf(b))) / 2;
}

/** Similarity of two texts, 0..1 (1: equal after normalisation). Ignores the guards. */
export function similarity(a: string, b: string): number {
  return profileSimilarity(profileQuestion(a), profileQuestion(b));
}

/** True when `earlier` is the same question as `now` under the threshold and every guard. */
export function sameQuestion(now: QuestionProfile, earlier: QuestionProfile, threshold: number): boolean {
  if (earlier.short || !sameGuardTerms(now.guards, earlier.guards)) return false;
  if (now.normalised === earlier.normalised) return 1 >= threshold;
  const words = cosine(wordsOf(now), wordsOf(earlier));
  // The score is the mean of two cosines of at most 1: skip the trigrams when even 1 cannot lift it enough.
  if ((words + 1) / 2 < threshold) return false;
  return (words + cosine(trigramsOf(now), trigramsOf(earlier))) / 2 >= threshold;
}
