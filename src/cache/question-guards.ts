/**
 * Guards of the reuse rule (docs/api.md#session-cache): two questions that differ in a number, a negation, a date or
 * weekday, or a unit type never share a reply, however similar their text. Each category turns the
 * normalised words of a question into the ordered list of its canonical terms; two questions pass only
 * when every list is equal. Order counts ("2 bed 1 bath" vs "1 bed 2 bath" differ). The word lists lean
 * to the safe side: a word that is only sometimes a date ("may", "sun", "this") or a number ("once",
 * "un") still counts, because a false miss costs one engine call while a false hit gives a wrong answer.
 * Words are accent-free and lower-case (see normalise-text.ts), English and Spanish.
 */

function table(groups: Record<string, string>): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const [canonical, words] of Object.entries(groups)) {
    for (const word of words.split(' ')) map.set(word, canonical);
  }
  return map;
}

export const NUMBER_WORDS = table({
  0: 'zero none cero', 1: 'one single first 1st un uno una primer primero primera', 2: 'two second couple dos segundo segunda',
  3: 'three third tres tercer tercero tercera', 4: 'four fourth cuatro cuarto cuarta',
  5: 'five fifth cinco quinto quinta', 6: 'six sixth seis sexto sexta', 7: 'seven seventh siete septimo septima',
  8: 'eight eighth ocho octavo octava', 9: 'nine ninth nueve noveno novena', 10: 'ten tenth diez decimo decima',
  11: 'eleven once', 12: 'twelve dozen doce', 13: 'thirteen trece', 14: 'fourteen catorce', 15: 'fifteen quince',
  16: 'sixteen dieciseis', 17: 'seventeen diecisiete', 18: 'eighteen dieciocho', 19: 'nineteen diecinueve',
  20: 'twenty veinte', 30: 'thirty treinta', 40: 'forty fourty cuarenta', 50: 'fifty cincuenta', 60: 'sixty sesenta',
  70: 'seventy setenta', 80: 'eighty ochenta', 90: 'ninety noventa', 100: 'hundred cien ciento cientos',
  1000: 'thousand mil', 1000000: 'million millon millones', 0.5: 'half medio media', 0.25: 'quarter',
  x2: 'double doble', x3: 'triple',
});

export const NEGATIONS = table({
  not: 'not', no: 'no', never: 'never nunca jamas', without: 'without sin', none: 'none ninguno ninguna ningun',
  nothing: 'nothing nada', nobody: 'nobody nadie', neither: 'neither nor ni tampoco', nowhere: 'nowhere',
  except: 'except excluding excepto salvo',
});

export const DATES = table({
  monday: 'monday mon lunes', tuesday: 'tuesday tue tues martes', wednesday: 'wednesday wed weds miercoles',
  thursday: 'thursday thu thur thurs jueves', friday: 'friday fri viernes', saturday: 'saturday sat sabado',
  sunday: 'sunday sun domingo', weekend: 'weekend weekends finde', weekday: 'weekday weekdays',
  january: 'january jan enero', february: 'february feb febrero', march: 'march mar marzo', april: 'april apr abril',
  may: 'may mayo', june: 'june jun junio', july: 'july jul julio', august: 'august aug agosto',
  september: 'september sep sept septiembre setiembre', october: 'october oct octubre',
  november: 'november nov noviembre', december: 'december dec diciembre',
  today: 'today hoy', tonight: 'tonight', tomorrow: 'tomorrow manana', yesterday: 'yesterday ayer',
  morning: 'morning mornings', afternoon: 'afternoon afternoons tarde tardes', evening: 'evening evenings',
  night: 'night nights noche noches', noon: 'noon mediodia', midnight: 'midnight medianoche', am: 'am', pm: 'pm',
  next: 'next proximo proxima siguiente', last: 'last pasado pasada', this: 'this este esta', coming: 'coming',
  week: 'week weeks semana semanas', month: 'month months mes meses', year: 'year years ano anos',
});

export const UNIT_TYPES = table({
  studio: 'studio studios estudio estudios efficiency', loft: 'loft lofts', penthouse: 'penthouse penthouses atico',
  townhome: 'townhome townhomes townhouse townhouses', duplex: 'duplex duplexes', condo: 'condo condos condominio',
  bedroom: 'bed beds bedroom bedrooms br bd bdr bdrm recamara recamaras habitacion habitaciones dormitorio dormitorios cuarto cuartos',
  bath: 'bath baths bathroom bathrooms ba bano banos', den: 'den dens',
});

/** Canonical number terms: digits as written (already canonical), number words by value. */
function numberTerms(tokens: readonly string[]): string[] {
  const terms: string[] = [];
  for (const token of tokens) {
    if (/^\d/.test(token)) terms.push(token);
    else {
      const value = NUMBER_WORDS.get(token);
      if (value !== undefined) terms.push(value);
    }
  }
  return terms;
}

function termsOf(tokens: readonly string[], map: ReadonlyMap<string, string>): string[] {
  const terms: string[] = [];
  for (const token of tokens) {
    const term = map.get(token);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}

/** The guard terms of one question, comparable with `sameGuardTerms`. */
export interface GuardTerms { numbers: string; negations: string; dates: string; units: string }

export function guardTerms(tokens: readonly string[]): GuardTerms {
  return {
    numbers: numberTerms(tokens).join(' '),
    negations: termsOf(tokens, NEGATIONS).join(' '),
    dates: termsOf(tokens, DATES).join(' '),
    units: termsOf(tokens, UNIT_TYPES).join(' '),
  };
}

export function sameGuardTerms(a: GuardTerms, b: GuardTerms): boolean {
  return a.numbers === b.numbers && a.negations === b.negations && a.dates === b.dates && a.units === b.units;
}

/**
 * Acknowledgements, greetings and politeness (EN + ES): words that carry no question of their own.
 * A message with fewer than MIN_MEANINGFUL_WORDS other words of two or more characters (or numbers)
 * is a short reply ("yes", "ok thanks", "sí, gracias", "yes I do") and never reuses or seeds a reply:
 * its meaning depends on what the assistant said just before, which the cache does not compare.
 */
export const FILLERS: ReadonlySet<string> = new Set(
  ('yes yeah yep yup ya no nope nah ok okay k kk sure thanks thank thx ty please pls plz hi hello hey bye goodbye ' +
    'great cool nice good fine perfect awesome alright right wow oh ah um uh hmm lol ' +
    'si vale bueno buena buenas gracias muchas hola adios chao claro perfecto listo dale porfa favor genial').split(' '),
);
export const MIN_MEANINGFUL_WORDS = 3;

export function isShortMessage(tokens: readonly string[]): boolean {
  let meaningful = 0;
  for (const token of tokens) {
    if (FILLERS.has(token)) continue;
    if (token.length >= 2 || /^\d/.test(token)) meaningful += 1;
    if (meaningful >= MIN_MEANINGFUL_WORDS) return false;
  }
  return true;
}
