import { describe, expect, it } from 'vitest';
import type { EngineReply } from '../../schemas/engine.schema.ts';
import type { CachedAnswer, SessionEntry } from '../../src/cache/session-cache.ts';
import { findReusableAnswer } from '../../src/cache/reuse-policy.ts';
import { similarity, SIMILARITY_THRESHOLD } from '../../src/cache/similarity.ts';

function answer(question: string, retrieval_type: EngineReply['retrieval_type'] = 'rag', extra: Partial<CachedAnswer> = {}): CachedAnswer {
  const reply: EngineReply = { response: `Reply to: ${question}`, intent: 'faq', sub_intent: 'general', retrieval_type };
  return { question, reply, at: 1_700_000_000_000, language: 'en', ...extra };
}

function sessionWith(...answers: CachedAnswer[]): SessionEntry {
  return { messages: [], answers, language: 'en' };
}

const reuses = (earlier: string, now: string) =>
  findReusableAnswer(sessionWith(answer(earlier)), now, SIMILARITY_THRESHOLD)?.question === earlier;

/** A long question (over 50 words) with slots, so one changed word still scores >= 0.98 and only a guard can refuse. */
const longEn = (unit = '2 bed', withWord = 'with', day = 'Saturday', month = 'in March') =>
  `Hello, I am relocating for work and would like to know whether you have a ${unit} apartment available ${withWord} ` +
  'in-unit laundry, covered parking for one car and a balcony facing the courtyard, whether the monthly rent includes ' +
  `water, trash and internet, and whether I could tour it on ${day} before moving in ${month}`;
const longEs = (unit = 'apartamento de dos recámaras', conWord = 'con', day = 'sábado') =>
  `Hola, me voy a mudar por trabajo y quisiera saber si tienen un ${unit} disponible ${conWord} lavadora dentro de ` +
  'la unidad, estacionamiento techado para un coche y un balcón hacia el patio, si la renta mensual incluye agua, ' +
  `basura e internet, y si podría visitarlo el ${day} antes de mudarme`;

describe('similarity', () => {
  it('is 1 for texts equal after normalisation, symmetric, and within 0..1', () => {
    expect(similarity('What are your office HOURS?!', '  what are   your office hours ')).toBe(1);
    expect(similarity('¿Qué incluye la renta?', 'que incluye la renta')).toBe(1);
    expect(similarity("Don't you accept cats?", 'do not you accept cats')).toBe(1);
    expect(similarity('Is the rent $1,500 a month?', 'is the rent 1500 a month')).toBe(1);
    const a = 'is the pool open when the gym closes';
    const b = 'is the gym open when the pool closes';
    expect(similarity(a, b)).toBe(similarity(b, a));
    expect(similarity(a, b)).toBeLessThan(SIMILARITY_THRESHOLD); // same words, other order
    expect(similarity('office hours', 'parking fee')).toBe(0);
    expect(similarity('', 'office hours')).toBe(0);
  });

  it('stays under 0.98 for a plural, a typo or one other word in an everyday question', () => {
    expect(similarity('What are your office hours?', 'What are your office hour?')).toBeLessThan(0.98);
    expect(similarity('Can I bring my pet when I move in?', 'Can I bring my pets when I move in?')).toBeLessThan(0.98);
    expect(similarity('Where do I pick up my packages?', 'Where do I pick up my pakages?')).toBeLessThan(0.98);
    expect(similarity('Is the gym open at night?', 'Is the pool open at night?')).toBeLessThan(0.98);
  });
});

describe('findReusableAnswer: which questions share a reply', () => {
  it.each([
    ['What are your office hours?', 'what are your office hours'],
    ['What are your office hours?', 'WHAT   ARE your office hours!!!'],
    ["Don't you accept cats?", 'dont you accept cats'],
    ['Is there a 2-bed available?', 'is there a 2 bed available'],
    ['Do you have 2br units?', 'Do you have 2 br units?'],
    ['Is the rent $1,500 a month?', 'is the rent 1500 a month'],
    ['¿Cuál es el horario de la oficina?', 'cual es el horario de la oficina'],
    ['¿Aceptan mascotas en los apartamentos?', 'Aceptan mascotas en los apartamentos'],
    ['¿Tienen estacionamiento para visitantes el sábado?', 'tienen estacionamiento para visitantes el sabado'],
    [longEn(), longEn().toLowerCase().replace(/,/g, '')],
    [longEn(), `${longEn()} please`],
    [longEs(), longEs('apartamento de dos recamaras', 'con', 'sabado')],
  ])('%j and %j share a reply', (earlier, now) => {
    expect(reuses(earlier, now)).toBe(true);
  });

  it.each([
    ['number', longEn('2 bed'), longEn('3 bed')],
    ['number', longEn(), longEn('2 bed', 'with', 'Saturday', 'on March 3')],
    ['number', 'Do you have 2 bed apartments with a balcony?', 'Do you have 3 bed apartments with a balcony?'],
    ['number', 'Is there a unit with 1.5 baths and a balcony?', 'Is there a unit with 15 baths and a balcony?'],
    ['negation', longEn('2 bed', 'with'), longEn('2 bed', 'without')],
    ['negation', 'Are pets allowed in the building?', 'Are no pets allowed in the building?'],
    ['negation', 'Are pets allowed in the building?', "Aren't pets allowed in the building?"],
    ['weekday', longEn('2 bed', 'with', 'Saturday'), longEn('2 bed', 'with', 'Sunday')],
    ['weekday', 'Can I tour on Saturday?', 'Can I tour on Sunday?'],
    ['month', longEn(), longEn('2 bed', 'with', 'Saturday', 'in April')],
    ['unit type', longEn('studio'), longEn('loft')],
    ['unit type', 'Is the studio still available?', 'Is the loft still available?'],
    ['number (es)', longEs(), longEs('apartamento de tres recámaras')],
    ['negation (es)', longEs(), longEs(undefined, 'sin')],
    ['weekday (es)', longEs(), longEs(undefined, undefined, 'domingo')],
    ['unit type (es)', longEs('estudio'), longEs('loft')],
    ['unit type (es)', longEs(), longEs('apartamento de dos baños')],
    ['negation (es)', '¿Se permiten mascotas en el edificio?', '¿No se permiten mascotas en el edificio?'],
  ])('questions that differ in a %s never share a reply: %j / %j', (_, earlier, now) => {
    expect(reuses(earlier, now)).toBe(false);
    expect(reuses(earlier, earlier)).toBe(true);
  });

  it('the long guarded pairs really are above the threshold, so the guards are what refuses them', () => {
    for (const [a, b] of [
      [longEn('2 bed'), longEn('3 bed')], [longEn(), longEn('2 bed', 'without')], [longEn(), longEn('2 bed', 'with', 'Sunday')],
      [longEn(), longEn('2 bed', 'with', 'Saturday', 'in April')], [longEn('studio'), longEn('loft')],
      [longEs(), longEs('apartamento de tres recámaras')], [longEs(), longEs(undefined, 'sin')],
      [longEs(), longEs(undefined, undefined, 'domingo')], [longEs(), longEs('apartamento de dos baños')],
    ] as const) {
      expect(similarity(a, b)).toBeGreaterThanOrEqual(SIMILARITY_THRESHOLD);
    }
  });

  it.each(['yes', 'Thanks!', 'ok', 'sí', 'Sí, gracias', 'ok thank you', 'yes I do', 'no', 'hola', 'Great, thanks!'])(
    'never reuses a reply for the short message %j, even repeated word for word',
    (message) => {
      expect(reuses(message, message)).toBe(false);
    },
  );

  it('reuses only fixed and rag replies, never live data', () => {
    const q = 'What is the pet policy for large dogs?';
    for (const type of ['fixed', 'rag'] as const) {
      expect(findReusableAnswer(sessionWith(answer(q, type)), q, 0.98)?.reply.retrieval_type).toBe(type);
    }
    for (const type of ['node', 'adapter', 'spf'] as const) {
      expect(findReusableAnswer(sessionWith(answer(q, type)), q, 0.98)).toBeUndefined();
    }
  });

  it('lets the newest answer to the same question decide', () => {
    const q = 'Which apartments are available next month?';
    expect(findReusableAnswer(sessionWith(answer(q, 'rag'), answer(q, 'node')), q, 0.98)).toBeUndefined();
    const newest = answer(q, 'fixed', { at: 2 });
    expect(findReusableAnswer(sessionWith(answer(q, 'rag', { at: 1 }), newest, answer('Where is the gym located?')), q, 0.98)).toBe(newest);
  });

  it('does not reuse an empty reply or one delivered in another language', () => {
    const q = 'What is included in the monthly rent?';
    const empty = answer(q, 'rag');
    empty.reply = { ...empty.reply, response: '  ' };
    expect(findReusableAnswer(sessionWith(empty), q, 0.98)).toBeUndefined();
    const spanish = answer(q, 'rag', { language: 'es' });
    expect(findReusableAnswer(sessionWith(spanish), q, 0.98, { language: 'en' })).toBeUndefined();
    expect(findReusableAnswer(sessionWith(spanish), q, 0.98, { language: 'es' })).toBe(spanish);
  });

  it('finds nothing without a session, without answers, or with an impossible threshold', () => {
    const q = 'What is included in the monthly rent?';
    expect(findReusableAnswer(undefined, q, 0.98)).toBeUndefined();
    expect(findReusableAnswer(sessionWith(), q, 0.98)).toBeUndefined();
    expect(findReusableAnswer(sessionWith(answer(q)), q, 1)).toBeDefined();
    expect(findReusableAnswer(sessionWith(answer(q)), q, 1.01)).toBeUndefined();
    expect(findReusableAnswer(sessionWith(answer(q)), q, Number.NaN)).toBeUndefined();
  });
});
