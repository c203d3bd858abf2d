import { PorterStemmer, PorterStemmerEs } from '../natural-parts.ts';
import { createRequire } from 'node:module';
import lexiconFile from '../data/lexicon.json' with { type: 'json' };
import { compilePatternSets } from '../knowledge/word-patterns.ts';
import { foldAccents, words } from '../knowledge/words.ts';

/**
 * Turns a visitor message into classifier features: word stems (English and Spanish Porter),
 * bilingual concept features from the domain lexicon, and two shape features (phone, email).
 * Both languages share one feature space, so one classifier serves English and Spanish.
 */

// The stop-word lists ship without type declarations (and natural's util index pulls in storage
// back ends), so they are loaded directly.
const require = createRequire(import.meta.url);
const englishStopwords = (require('natural/lib/natural/util/stopwords.js') as { words: string[] }).words;
const spanishStopwords = (require('natural/lib/natural/util/stopwords_es.js') as { words: string[] }).words;
const stopwords = new Set([...englishStopwords, ...spanishStopwords].map(foldAccents));

const concepts = compilePatternSets(lexiconFile.concepts);

// A concept met by two or more words of the message ("how much ... deposit") gets one extra
// feature, so it outweighs a concept met once in passing ("move in").
function conceptsOf(folded: readonly string[]): string[] {
  return concepts.flatMap((c) => {
    const n = c.count(folded);
    return n === 0 ? [] : n === 1 ? [`c:${c.name}`] : [`c:${c.name}`, `c:${c.name}+`];
  });
}

// Concepts that only qualify a message ("today", "on Sunday") and say nothing about renting:
// they do not make an otherwise off-topic message in-domain.
const MODIFIER_CONCEPTS = new Set(['c:day', 'c:day+']);

const PHONE = /\+?\d[\d\s().-]{5,}\d/;
// One character before the "@" is enough to say there is an address; `[^\s@]+@` would rescan a long word from each of its letters.
const EMAIL = /[^\s@]@[^\s@]+\.[^\s@]+/;

export interface MessageFeatures {
  readonly features: string[];
  /** How many domain concepts matched: 0 means nothing in the message is about renting here. */
  readonly conceptCount: number;
}

/** Content-word stems in both languages (a word's English and Spanish stems are both kept). */
export function stems(text: string): string[] {
  const out = new Set<string>();
  for (const word of words(text)) {
    const plain = foldAccents(word);
    if (stopwords.has(plain)) continue;
    out.add(PorterStemmer.stem(plain));
    out.add(foldAccents(PorterStemmerEs.stem(word)));
  }
  return [...out];
}

// Concept and shape features are added twice: with natural's Bayes every present feature weighs
// the same, and doubling these measurably helps on held-out messages (scripts/eval-engine.ts).
const STRONG_FEATURE_WEIGHT = 2;

export function extractFeatures(text: string): MessageFeatures {
  const strong = conceptsOf(words(text).map(foldAccents));
  const conceptCount = strong.filter((f) => !MODIFIER_CONCEPTS.has(f)).length;
  if (PHONE.test(text)) strong.push('s:phone');
  if (EMAIL.test(text)) strong.push('s:email');
  const weighted = strong.flatMap((f) =>
    Array.from({ length: STRONG_FEATURE_WEIGHT }, (_, i) => (i === 0 ? f : `${f}#${i + 1}`)),
  );
  return { features: [...stems(text), ...weighted], conceptCount };
}
