/**
 * Replies built from the property API (docs/contracts.md#property-api) for `retrieval_type: adapter`, written directly
 * in the reply language so they never need translating. Each is a few short, whole sentences: a count,
 * the price range, then up to three examples (cheapest or soonest first), well within the 500
 * characters that the concise format keeps.
 */
import type { FloorPlan, TimeSlot, Unit } from '../../schemas/property-api.schema.ts';
import {
  area, bathrooms, bedrooms, clock, count, dayKey, joinAnd, longDay, money, parseDate, perMonth,
  safeTimeZone, shortDay, type Lang,
} from './property-format.ts';
import { moreOf, NOT_AVAILABLE, NOTHING_LISTED, TOURS_BY_OFFICE, UNKNOWN_PROPERTY, type Topic } from './property-texts.ts';

export type { Lang, Topic };
export interface DateOptions { timeZone?: string; now?: Date }

const EXAMPLES = 3;
const TOUR_TIMES = 4;
const NEIGHBORHOOD_PLACES = 6;
const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const list = (parts: string[]): string => parts.filter((p) => p !== '').join(', ');
/** Close a sentence without doubling a full stop that ends it already ("11:00 a.m."). */
const endSentence = (text: string): string => (text.endsWith('.') ? text : `${text}.`);

/** "Unit 2104" for bare unit numbers; names that already say what they are are kept. */
function unitLabel(name: string, lang: Lang): string {
  const trimmed = name.trim();
  if (/^(?:#|\d|[a-z]{1,2}-?\d)/i.test(trimmed)) return `${lang === 'es' ? 'Unidad' : 'Unit'} ${trimmed.replace(/^#\s*/, '')}`;
  return trimmed;
}

function availability(value: string, lang: Lang, timeZone: string, now: Date): string {
  const parsed = parseDate(value);
  if (parsed === null) return '';
  const zone = parsed.dateOnly ? 'UTC' : timeZone; // a date-only value is a calendar day, not an instant
  if (dayKey(parsed.date, zone) <= dayKey(now, timeZone)) return lang === 'es' ? 'disponible ahora' : 'available now';
  const day = shortDay(parsed.date, lang, zone, now);
  return lang === 'es' ? `disponible desde el ${day}` : `available from ${day}`;
}

function priceRange(amounts: number[], lang: Lang): string {
  const positive = amounts.filter((a) => a > 0);
  if (positive.length === 0) return '';
  const low = Math.min(...positive);
  const high = Math.max(...positive);
  if (low === high) return lang === 'es' ? ` por ${perMonth(money(low), lang)}` : ` at ${perMonth(money(low), lang)}`;
  return lang === 'es' ? `, desde ${money(low)} hasta ${perMonth(money(high), lang)}` : `, from ${money(low)} to ${perMonth(money(high), lang)}`;
}

export function describeUnits(units: Unit[], lang: Lang, opts: DateOptions = {}): string {
  if (units.length === 0) return NOTHING_LISTED.units[lang];
  const timeZone = safeTimeZone(opts.timeZone);
  const now = opts.now ?? new Date();
  const sorted = [...units].sort((a, b) =>
    (a.rent > 0 ? a.rent : Infinity) - (b.rent > 0 ? b.rent : Infinity) || byName.compare(a.name, b.name));
  const n = units.length;
  const intro = lang === 'es'
    ? `Tenemos ${count(n)} ${n === 1 ? 'unidad disponible' : 'unidades disponibles'}${priceRange(units.map((u) => u.rent), lang)}.`
    : `We have ${count(n)} ${n === 1 ? 'unit' : 'units'} available${priceRange(units.map((u) => u.rent), lang)}.`;
  const lines = sorted.slice(0, EXAMPLES).map((u) => endSentence(`${unitLabel(u.name, lang)}: ${list([
    bedrooms(u.bedrooms, lang), bathrooms(u.bathrooms, lang), area(u.sqft, lang),
    u.rent > 0 ? perMonth(money(u.rent), lang) : '', availability(u.available_date, lang, timeZone, now),
  ])}`));
  return [intro, ...lines, moreOf('units', n - EXAMPLES, lang)].filter((s) => s !== '').join(' ');
}

function planPrice(plan: FloorPlan, lang: Lang): string {
  const [low, high] = [plan.min_rent, plan.max_rent].filter((a) => a > 0).sort((a, b) => a - b);
  if (low === undefined) return lang === 'es' ? 'precio a consultar' : 'pricing on request';
  if (high === undefined || high === low) return perMonth(money(low), lang);
  return lang === 'es' ? `de ${money(low)} a ${perMonth(money(high), lang)}` : `${money(low)} to ${perMonth(money(high), lang)}`;
}

const lowestRent = (p: FloorPlan): number => Math.min(...[p.min_rent, p.max_rent].filter((a) => a > 0), Infinity);

export function describeFloorPlans(plans: FloorPlan[], lang: Lang): string {
  if (plans.length === 0) return NOTHING_LISTED.floor_plans[lang];
  const sorted = [...plans].sort((a, b) =>
    lowestRent(a) - lowestRent(b) || a.bedrooms - b.bedrooms || byName.compare(a.name, b.name));
  const n = plans.length;
  const cheapest = lowestRent(sorted[0]!);
  const from = Number.isFinite(cheapest) ? (lang === 'es' ? `, desde ${perMonth(money(cheapest), lang)}` : `, starting at ${perMonth(money(cheapest), lang)}`) : '';
  const intro = lang === 'es'
    ? `Tenemos ${count(n)} ${n === 1 ? 'plano de planta' : 'planos de planta'}${from}.`
    : `We have ${count(n)} floor ${n === 1 ? 'plan' : 'plans'}${from}.`;
  const lines = sorted.slice(0, EXAMPLES).map((p) => endSentence(`${p.name.trim()}: ${list([
    bedrooms(p.bedrooms, lang), bathrooms(p.bathrooms, lang), area(p.sqft, lang), planPrice(p, lang),
  ])}`));
  return [intro, ...lines, moreOf('floor_plans', n - EXAMPLES, lang)].filter((s) => s !== '').join(' ');
}

export function describeTourSlots(slots: TimeSlot[], lang: Lang, opts: DateOptions = {}): string {
  const timeZone = safeTimeZone(opts.timeZone);
  const now = opts.now ?? new Date();
  const seen = new Set<string>();
  const open = slots
    .map((s) => ({ start: new Date(s.start), end: new Date(s.end) }))
    .filter((s) => !Number.isNaN(s.start.getTime()) && !Number.isNaN(s.end.getTime()) && s.end > s.start && s.start > now)
    .sort((a, b) => a.start.getTime() - b.start.getTime() || a.end.getTime() - b.end.getTime())
    .filter((s) => { const key = `${s.start.getTime()}-${s.end.getTime()}`; return !seen.has(key) && seen.add(key) !== undefined; });
  if (open.length === 0) return NOTHING_LISTED.tour_slots[lang];
  // Times on the same day share one mention of the day: "Saturday, March 15, 10:00 AM to 11:00 AM and ...".
  const days: Array<{ key: string; day: string; ranges: string[] }> = [];
  for (const s of open.slice(0, TOUR_TIMES)) {
    const key = dayKey(s.start, timeZone);
    const [from, to] = [clock(s.start, lang, timeZone), clock(s.end, lang, timeZone)];
    const range = lang === 'es' ? `de ${from} a ${to}` : `${from} to ${to}`;
    const last = days.at(-1);
    if (last !== undefined && last.key === key) last.ranges.push(range);
    else days.push({ key, day: longDay(s.start, lang, timeZone, now), ranges: [range] });
  }
  const times = days.map((d) => `${d.day}, ${joinAnd(d.ranges, lang)}`);
  const joined = times.length === 1 ? times[0]! : `${times.slice(0, -1).join('; ')}; ${lang === 'es' ? 'o' : 'or'} ${times.at(-1)!}`;
  const n = open.length;
  const total = lang === 'es'
    ? (n === 1 ? 'Hay 1 horario disponible para visitas' : `Hay ${count(n)} horarios disponibles para visitas`)
    : (n === 1 ? 'There is 1 tour time available' : `There are ${count(n)} tour times available`);
  const next = n > TOUR_TIMES ? (lang === 'es' ? '. Los próximos son: ' : '. The next ones are: ') : ': ';
  const question = n === 1 ? (lang === 'es' ? '¿Le conviene?' : 'Does that work for you?') : (lang === 'es' ? '¿Cuál le conviene?' : 'Which one works for you?');
  return `${total}${next}${endSentence(joined)} ${question}`;
}

export function toursByOffice(lang: Lang): string {
  return TOURS_BY_OFFICE[lang];
}

export function describeNeighborhood(keywords: string[], lang: Lang): string {
  const seen = new Set<string>();
  const places = keywords
    .map((k) => k.replace(/\s+/g, ' ').trim())
    .filter((k) => k !== '' && !seen.has(k.toLowerCase()) && seen.add(k.toLowerCase()) !== undefined);
  if (places.length === 0) return NOTHING_LISTED.neighborhood[lang];
  const shown = places.slice(0, NEIGHBORHOOD_PLACES);
  if (places.length > shown.length) shown.push(lang === 'es' ? 'más' : 'more');
  return endSentence(lang === 'es' ? `Cerca de la propiedad encontrará ${joinAnd(shown, lang)}` : `Near the property you'll find ${joinAnd(shown, lang)}`);
}

/**
 * The reply when the property API gave no data: `unknownProperty` when it answered that it does not
 * know the property (404), which waiting will not change; otherwise it could not answer right now.
 */
export function notAvailableNow(topic: Topic, lang: Lang, unknownProperty = false): string {
  return (unknownProperty ? UNKNOWN_PROPERTY : NOT_AVAILABLE)[topic][lang];
}
