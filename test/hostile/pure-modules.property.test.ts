import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalisedTokens } from '../../src/cache/normalise-text.ts';
import { guardTerms, isShortMessage } from '../../src/cache/question-guards.ts';
import { findReusableAnswer } from '../../src/cache/reuse-policy.ts';
import type { CachedAnswer, SessionEntry } from '../../src/cache/session-cache.ts';
import { SIMILARITY_THRESHOLD, similarity } from '../../src/cache/similarity.ts';
import { canonicalJson, requestFingerprint } from '../../src/idempotency/request-fingerprint.ts';
import { detectLanguage, MAX_CHARS } from '../../src/language/detect-language.ts';
import { CONCISE_MAX_CHARS, concise, formatByRetrievalType, markdown, markdownItem, verbose } from '../../src/reply/reply-styles.ts';
import type { RetrievalType } from '../../schemas/chat-response.schema.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { hostileText, isSubsequence, lettersOf, longRun, PROTOTYPE_NAMES } from './hostile-text.ts';

/*
 * Property-based tests (fast-check) of the pure modules a chat runs through, over hostile text:
 * any Unicode, lone surrogates, Object.prototype names as words, maximum-length runs of the
 * characters that make naive patterns backtrack. Each property must hold for every input; a
 * failure prints the smallest input found. Runs are kept small: the whole file takes seconds.
 */

const RUNS = { numRuns: 150 };
const LONG_RUNS = { numRuns: 25 };
const anyText = fc.oneof(hostileText(), longRun());
const asciiWord = fc.stringMatching(/^[a-z]{2,8}$/);

describe('normalisation', () => {
  it('never throws, gives words without white space, and is stable when applied again', () => {
    fc.assert(fc.property(anyText, (text) => {
      const tokens = normalisedTokens(text);
      for (const token of tokens) expect(token).toMatch(/^\S+$/u);
      expect(normalisedTokens(tokens.join(' '))).toEqual(tokens);
    }), RUNS);
  });

  it('ignores case, punctuation and spacing', () => {
    const gap = fc.constantFrom(' ', '  ', ', ', '! ', '?', ' - ', '\n', '...');
    fc.assert(fc.property(fc.array(fc.tuple(asciiWord, gap), { minLength: 1, maxLength: 12 }), (pairs) => {
      const plain = pairs.map(([w]) => w).join(' ');
      const noisy = pairs.map(([w, g]) => w.toUpperCase() + g).join('');
      expect(normalisedTokens(noisy)).toEqual(normalisedTokens(plain));
    }), RUNS);
  });

  it.each(PROTOTYPE_NAMES)('keeps "%s" as an ordinary word', (name) => {
    expect(normalisedTokens(`${name} ${name}`)).toEqual(normalisedTokens(`${name} ${name}`.toLowerCase()));
    expect(() => guardTerms(normalisedTokens(name))).not.toThrow();
  });
});

describe('similarity and the question guards', () => {
  it('is a number from 0 to 1, symmetric, and 1 for a text and itself', () => {
    fc.assert(fc.property(anyText, anyText, (a, b) => {
      const ab = similarity(a, b);
      expect(ab).toBeGreaterThanOrEqual(0);
      expect(ab).toBeLessThanOrEqual(1);
      expect(similarity(b, a)).toBeCloseTo(ab, 12);
      expect(similarity(a, a)).toBe(1);
    }), RUNS);
  });

  it('never lets two questions that differ in a number share a reply', () => {
    fc.assert(fc.property(fc.array(asciiWord, { minLength: 3, maxLength: 12 }), fc.integer({ min: 0, max: 99 }), (words, n) => {
      const question = (count: number) => `${words.join(' ')} ${count} bedroom`;
      const entry: SessionEntry = { messages: [], answers: [{ question: question(n), reply: engineReply(), at: 0 }] };
      expect(findReusableAnswer(entry, question(n + 1), SIMILARITY_THRESHOLD)).toBeUndefined();
    }), RUNS);
  });

  it('reuses only a fixed or rag reply with text, and only one of the session', () => {
    const retrieval = fc.constantFrom<RetrievalType>('node', 'rag', 'fixed', 'adapter', 'spf');
    const answer = fc.record({ question: anyText, type: retrieval, response: fc.oneof(anyText, fc.constant('')) });
    fc.assert(fc.property(fc.array(answer, { maxLength: 8 }), anyText, (answers, asked) => {
      const cached: CachedAnswer[] = answers.map((a) => ({ question: a.question, reply: engineReply({ retrieval_type: a.type, response: a.response }), at: 0 }));
      const found = findReusableAnswer({ messages: [], answers: cached }, asked, SIMILARITY_THRESHOLD);
      if (found === undefined) return;
      expect(cached).toContain(found);
      expect(['fixed', 'rag']).toContain(found.reply.retrieval_type);
      expect(found.reply.response.trim()).not.toBe('');
      expect(isShortMessage(normalisedTokens(asked))).toBe(false);
    }), RUNS);
  });
});

describe('language detection', () => {
  it('answers en, es or unknown for any text', () => {
    fc.assert(fc.property(anyText, (text) => {
      expect(['en', 'es', 'unknown']).toContain(detectLanguage(text));
    }), RUNS);
  });

  it(`reads only the first ${MAX_CHARS} characters, so its cost does not grow past them`, () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', minLength: MAX_CHARS, maxLength: MAX_CHARS + 10 }), anyText, (head, tail) => {
      expect(detectLanguage(head + tail)).toBe(detectLanguage(head));
    }), LONG_RUNS);
  });
});

describe('reply formatting', () => {
  const styles = [
    ['verbose', verbose],
    ['markdown', (t: string) => markdown(t)],
    ['concise', (t: string) => concise(t)],
  ] as const;

  it.each(styles)('%s never throws and never adds a letter', (_name, format) => {
    fc.assert(fc.property(anyText, (text) => {
      const out = format(text);
      expect(isSubsequence(lettersOf(out), lettersOf(text))).toBe(true);
    }), RUNS);
  });

  it('verbose keeps every letter', () => {
    fc.assert(fc.property(anyText, (text) => {
      expect(lettersOf(verbose(text))).toBe(lettersOf(text));
    }), RUNS);
  });

  it(`concise is one paragraph of at most ${CONCISE_MAX_CHARS} characters, without white-space runs`, () => {
    fc.assert(fc.property(anyText, (text) => {
      const out = concise(text);
      expect(out.length).toBeLessThanOrEqual(CONCISE_MAX_CHARS);
      expect(out).not.toMatch(/\s\s|[\n\r\t]/);
      expect(out).toBe(out.trim());
    }), RUNS);
  });

  it('renders data items with any member names, prototype names included, as one list line each', () => {
    const key = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), hostileText(3));
    const item = fc.dictionary(key, fc.oneof(anyText, fc.integer(), fc.constant(null)), { maxKeys: 6 });
    fc.assert(fc.property(fc.array(item, { maxLength: 5 }), anyText, (items, text) => {
      for (const it of items) expect(markdownItem(it)).toMatch(/^- \*\*/);
      expect(() => formatByRetrievalType({ response: text, retrieval_type: 'node', sub_intent: 'x', data: items })).not.toThrow();
    }), RUNS);
  });

  it.each(styles)('%s formats a 256 KiB hostile reply (the largest engine answer) in well under a second', (_name, format) => {
    // Before: quadratic patterns took 50 s on a 300 KB reply. Linear code takes milliseconds; the
    // bound leaves room for a busy machine and still fails any quadratic pattern at this size.
    for (const unit of ['*a ', '![](', '[(', '**a ', '~~a ', '_a ', ' ', 'a' + ' '.repeat(999), '😀']) {
      const text = unit.repeat(Math.ceil((256 * 1024) / unit.length));
      const started = performance.now();
      format(text);
      expect(performance.now() - started, JSON.stringify(unit)).toBeLessThan(1000);
    }
  });
});

describe('request fingerprints', () => {
  it('canonical JSON reads back as the same value, whatever the member names', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(JSON.parse(canonicalJson(value))).toEqual(value);
    }), RUNS);
  });

  it('do not depend on member order, prototype names included', () => {
    const key = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 6 }));
    fc.assert(fc.property(fc.uniqueArray(fc.tuple(key, fc.jsonValue({ maxDepth: 2 })), { selector: ([k]) => k, maxLength: 8 }), (members) => {
      const build = (list: typeof members) => JSON.parse(`{${list.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`) as unknown;
      expect(requestFingerprint(build(members))).toBe(requestFingerprint(build([...members].reverse())));
    }), RUNS);
  });
});
