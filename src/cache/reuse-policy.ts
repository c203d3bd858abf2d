/**
 * When may a new message reuse an earlier reply of the same session? (docs/api.md#session-cache)
 *
 * Reuse rule (findReusableAnswer): the new message must not be a short reply (question-guards.ts:
 * fewer than 3 meaningful words, e.g. "yes", "ok thanks", "sí, gracias"); the earlier question must
 * score >= threshold and have the same numbers, negations, dates/weekdays/months and unit types, in the
 * same order. The newest such earlier question decides: its reply is reused only when it is `fixed`
 * or `rag` with a non-empty text (live data, `node` / `adapter` / `spf`, is never reused, and an older
 * static reply is not dug out from under a newer live one). When the caller passes the language the
 * reply must be in, an answer delivered in another language is not reused.
 */
import type { CachedAnswer, SessionEntry } from './session-cache.ts';
import { profileQuestion, sameQuestion } from './similarity.ts';

export const REUSABLE_RETRIEVAL_TYPES: ReadonlySet<string> = new Set(['fixed', 'rag']);

export interface ReuseOptions {
  /** The language the reply must be delivered in; an answer given in another language is not reused. */
  language?: 'en' | 'es';
}

export function findReusableAnswer(
  entry: SessionEntry | undefined,
  question: string,
  threshold: number,
  options: ReuseOptions = {},
): CachedAnswer | undefined {
  if (entry === undefined || entry.answers.length === 0 || !(threshold <= 1)) return undefined;
  const asked = profileQuestion(question);
  if (asked.short) return undefined;
  for (let i = entry.answers.length - 1; i >= 0; i -= 1) {
    const candidate = entry.answers[i];
    if (candidate === undefined || !sameQuestion(asked, profileQuestion(candidate.question), threshold)) continue;
    const reusable =
      REUSABLE_RETRIEVAL_TYPES.has(candidate.reply.retrieval_type) &&
      candidate.reply.response.trim() !== '' &&
      (options.language === undefined || candidate.language === undefined || candidate.language === options.language);
    return reusable ? candidate : undefined;
  }
  return undefined;
}
