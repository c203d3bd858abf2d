/**
 * Word-pattern lists as used by data/lexicon.json and data/place-keywords.json: a pattern is a
 * word ("pool"), a word prefix ("pisc*") or several words ("hot tub"), all lower case without
 * accents. Matching works on already-folded words.
 */
export interface PatternSet {
  readonly name: string;
  matches(foldedWords: readonly string[]): boolean;
  /** How many of the words and phrases of the text match (a word counts once). */
  count(foldedWords: readonly string[]): number;
}

export function compilePatternSet(name: string, patterns: readonly string[]): PatternSet {
  const single = patterns.filter((p) => !p.includes(' '));
  const exact = new Set(single.filter((p) => !p.endsWith('*')));
  const prefixes = single.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  // Phrases match on word boundaries of the joined words; a trailing * leaves the end open.
  const phrases = patterns
    .filter((p) => p.includes(' '))
    .map((p) => (p.endsWith('*') ? ` ${p.slice(0, -1)}` : ` ${p} `));
  const wordHits = (w: string) => exact.has(w) || prefixes.some((p) => w.startsWith(p));
  return {
    name,
    count(foldedWords) {
      const joined = ` ${foldedWords.join(' ')} `;
      return new Set(foldedWords.filter(wordHits)).size + phrases.filter((p) => joined.includes(p)).length;
    },
    matches(foldedWords) {
      if (foldedWords.some((w) => exact.has(w) || prefixes.some((p) => w.startsWith(p)))) return true;
      if (phrases.length === 0) return false;
      const joined = ` ${foldedWords.join(' ')} `;
      return phrases.some((p) => joined.includes(p));
    },
  };
}

export function compilePatternSets(sets: Readonly<Record<string, readonly string[]>>): PatternSet[] {
  return Object.entries(sets).map(([name, patterns]) => compilePatternSet(name, patterns));
}
