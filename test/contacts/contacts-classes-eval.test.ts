import { describe, expect, it } from 'vitest';
import { FIELDS, evaluateByLanguage, loadContactCases, type Field } from '../../scripts/eval-contacts.ts';

/**
 * Quality gate of issue 44 on its two sets (not a timing test): every class of miss in both
 * languages, and precision and recall per language and field at or above the bars. The tuning set
 * is held to the issue's targets; the two held-out sets (one written before any tuning, one after
 * tuning ended, neither tuned against) to a bar just under what they measured when the work was done
 * (docs/api.md), so a change that makes extraction worse on new messages fails here.
 */
type Bars = Readonly<Record<Field, { precision: number; recall: number }>>;
const ISSUE_TARGETS: Bars = {
  name: { precision: 0.97, recall: 0.93 },
  phone: { precision: 0.995, recall: 0.985 },
  email: { precision: 0.995, recall: 0.985 },
};
const HELD_OUT_FLOOR: Bars = {
  name: { precision: 0.95, recall: 0.95 },
  phone: { precision: 0.995, recall: 0.95 },
  email: { precision: 0.995, recall: 0.985 },
};
const CLASSES = [
  'middle-initial', 'particle', 'hyphenated', 'two-part-surname', 'world-name', 'form-fields', 'form-name-email', 'parenthesised-unit',
  'name-dash', 'word-name', 'word-name-negative', 'all-caps', 'title', 'numbers-before-phone', 'messaging-international',
  'unicode-email', 'zero-width', 'no-contact', 'staff-office', 'third-party',
];

describe.each([
  { title: 'held-out', file: 'contacts-classes-holdout.json', minPerLanguage: 120, bars: HELD_OUT_FLOOR },
  { title: 'fresh held-out', file: 'contacts-classes-fresh.json', minPerLanguage: 55, bars: HELD_OUT_FLOOR },
  { title: 'tuning', file: 'contacts-classes-tuning.json', minPerLanguage: 100, bars: ISSUE_TARGETS },
])('contact extraction on the classes\' $title set', ({ file, minPerLanguage, bars }) => {
  const cases = loadContactCases(file);
  const scores = evaluateByLanguage(cases);

  it('is large enough and covers every class of issue 44 in both languages', () => {
    for (const lang of ['en', 'es']) {
      const own = cases.filter((c) => c.lang === lang);
      expect(own.length).toBeGreaterThanOrEqual(minPerLanguage);
      const kinds = new Set(own.map((c) => c.kind));
      for (const kind of CLASSES) expect(kinds, `${lang} ${kind}`).toContain(kind);
    }
  });

  it.each(['en', 'es'])('meets its bars in %s for name, phone and email', async (lang) => {
    const s = (await scores).get(lang)!;
    for (const field of FIELDS) {
      expect(s[field].precision, `${lang} ${field} precision`).toBeGreaterThanOrEqual(bars[field].precision);
      expect(s[field].recall, `${lang} ${field} recall`).toBeGreaterThanOrEqual(bars[field].recall);
    }
  });
});
