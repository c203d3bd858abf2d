import type { Knowledge } from '../knowledge/load-knowledge.ts';
import { REPLY_TEMPLATES, type Bi, type Property } from '../knowledge/knowledge.schema.ts';

/** English -> Spanish lookups: whole sentences, and terms of Markdown list lines. */
export interface PhraseTable {
  readonly size: number;
  lookup(english: string): string | undefined;
}

export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function propertyPairs(p: Property, k: Knowledge): Bi[] {
  const prefixed = (name: string): Bi => {
    const [first = '', ...rest] = name.split(' ');
    const es = Object.hasOwn(k.namePrefixes, first) ? k.namePrefixes[first] : undefined;
    return { en: name, es: es === undefined ? name : [es, ...rest].join(' ') };
  };
  return [
    ...p.texts.office_hours, ...p.texts.pet_policy, ...p.texts.parking,
    ...p.neighborhood.flat(),
    ...p.faq.flatMap((d) => d.text),
    ...p.amenities.flatMap((a) => [a.name, a.hours, a.fee]),
    ...REPLY_TEMPLATES.flatMap((t) => k.template(t, p)),
    ...p.units.map((u) => prefixed(u.name)),
    // Floor plan names are proper names: kept as they are, but known (so not "untranslated").
    ...p.floor_plans.map((f) => ({ en: f.name, es: f.name })),
  ];
}

/**
 * Generated from the same bilingual knowledge the engine answers from, so that every text the
 * reference engine can produce has its translation. An English sentence with two different
 * Spanish versions is a data error and fails at start-up.
 */
export function buildPhraseTable(k: Knowledge): PhraseTable {
  const table = new Map<string, string>();
  const add = (en: string, es: string) => {
    const key = normalizeSpace(en);
    if (key === '') return;
    const known = table.get(key);
    if (known !== undefined && known !== normalizeSpace(es)) {
      throw new Error(`phrase table: two Spanish versions of "${key}"`);
    }
    table.set(key, normalizeSpace(es));
  };
  for (const p of k.properties) for (const pair of propertyPairs(p, k)) add(pair.en, pair.es);
  for (const f of Object.values(k.followUps)) add(f.en, f.es);
  for (const [en, es] of Object.entries(k.glossary)) add(en, es);

  const lowerCase = new Map([...table].map(([en, es]) => [en.toLowerCase(), es]));
  return {
    size: table.size,
    lookup: (english) => {
      const key = normalizeSpace(english);
      return table.get(key) ?? lowerCase.get(key.toLowerCase());
    },
  };
}
