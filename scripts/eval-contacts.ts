/**
 * Precision and recall of contact extraction on the labelled set test/language/contacts-eval.json
 * (the development set, tuned against) and on contacts-holdout.json (written before the code it
 * measures and never tuned against: the honest figure for new messages).
 * Run: npx node scripts/eval-contacts.ts [--misses]   (--misses lists the development set's misses
 * only: the held-out set's failures are not for reading while tuning)
 * A name/phone/email counts as right only when it equals the label exactly (E.164 for phones, the
 * domain lower-cased for emails, names capitalised); a wrong value counts against both figures.
 */
import { readFileSync } from 'node:fs';
import { extractContact, warmUpContacts, type ExtractedContact } from '../src/contacts/find-contact.ts';
import { findNameWithEntitiesOnly } from '../src/contacts/name.ts';

export interface ContactCase { text: string; name: string | null; phone: string | null; email: string | null }
export interface FieldScore { precision: number; recall: number; reported: number; labelled: number; right: number }
type Field = 'name' | 'phone' | 'email';

export function loadContactCases(file = 'contacts-eval.json'): ContactCase[] {
  return JSON.parse(readFileSync(new URL(`../test/language/${file}`, import.meta.url), 'utf8')) as ContactCase[];
}

export function score(pairs: Array<{ got: string | null; want: string | null }>): FieldScore {
  const reported = pairs.filter((p) => p.got !== null).length;
  const labelled = pairs.filter((p) => p.want !== null).length;
  const right = pairs.filter((p) => p.got !== null && p.got === p.want).length;
  return { precision: reported === 0 ? 1 : right / reported, recall: labelled === 0 ? 1 : right / labelled, reported, labelled, right };
}

export async function evaluateContacts(cases: ContactCase[] = loadContactCases()): Promise<Record<Field, FieldScore> & { misses: string[] }> {
  const results: Array<{ c: ContactCase; got: ExtractedContact }> = [];
  for (const c of cases) results.push({ c, got: await extractContact(c.text, { defaultRegion: 'US' }) });
  const misses: string[] = [];
  for (const { c, got } of results) {
    for (const field of ['name', 'phone', 'email'] as const) {
      if (got[field] !== c[field]) misses.push(`${field}: got ${JSON.stringify(got[field])} want ${JSON.stringify(c[field])} | ${c.text}`);
    }
  }
  const field = (f: Field): FieldScore => score(results.map(({ c, got }) => ({ got: got[f], want: c[f] })));
  return { name: field('name'), phone: field('phone'), email: field('email'), misses };
}

/** The same name figures for compromise's people() alone, to compare the approaches. */
export function evaluateEntityNamesOnly(cases: ContactCase[] = loadContactCases()): FieldScore {
  return score(cases.map((c) => ({ got: findNameWithEntitiesOnly(c.text), want: c.name })));
}

const line = (label: string, s: FieldScore): string =>
  `${label.padEnd(22)} precision ${s.precision.toFixed(3)}  recall ${s.recall.toFixed(3)}  (${s.right} right of ${s.reported} reported, ${s.labelled} labelled)`;

async function report(title: string, cases: ContactCase[], misses: boolean): Promise<void> {
  await warmUpContacts(); // the time per message below is the finders' own, not their loading
  const started = performance.now();
  const result = await evaluateContacts(cases);
  const ms = performance.now() - started;
  console.log(`${title}: ${cases.length} messages, ${(ms / cases.length).toFixed(2)} ms per message`);
  console.log(line('name', result.name));
  console.log(line('phone', result.phone));
  console.log(line('email', result.email));
  console.log(line('name (compromise only)', evaluateEntityNamesOnly(cases)));
  if (misses) for (const miss of result.misses) console.log(`  ${miss}`);
}

if (import.meta.main) {
  const misses = process.argv.includes('--misses');
  await report('development set', loadContactCases(), misses);
  await report('held-out set', loadContactCases('contacts-holdout.json'), false);
}
