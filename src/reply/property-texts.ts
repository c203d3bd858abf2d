/** Fixed sentences of the property answers, in both reply languages (formal "usted" in Spanish). */
import type { Lang } from './property-format.ts';

export type Topic = 'units' | 'floor_plans' | 'tour_slots' | 'neighborhood';
type Texts = Record<Topic, Record<Lang, string>>;

const TRY_LATER = {
  en: 'Please try again in a little while or contact the leasing office.',
  es: 'Inténtelo de nuevo en un rato o comuníquese con la oficina de arrendamiento.',
};

/** The property API could not be reached or answered badly. */
export const NOT_AVAILABLE: Texts = {
  units: {
    en: `I can't check the available units right now. ${TRY_LATER.en}`,
    es: `No puedo consultar las unidades disponibles en este momento. ${TRY_LATER.es}`,
  },
  floor_plans: {
    en: `I can't check the floor plans right now. ${TRY_LATER.en}`,
    es: `No puedo consultar los planos de planta en este momento. ${TRY_LATER.es}`,
  },
  tour_slots: {
    en: `I can't check the tour schedule right now. ${TRY_LATER.en}`,
    es: `No puedo consultar los horarios de visita en este momento. ${TRY_LATER.es}`,
  },
  neighborhood: {
    en: `I can't look up the neighborhood right now. ${TRY_LATER.en}`,
    es: `No puedo consultar información del vecindario en este momento. ${TRY_LATER.es}`,
  },
};

const NOT_ON_RECORD = {
  en: "I don't have this property on record, so I can't look up",
  es: 'No tengo esta propiedad registrada, así que no puedo consultar',
};
const ASK_THE_OFFICE = {
  en: 'The leasing office can help you directly.',
  es: 'La oficina de arrendamiento puede ayudarle directamente.',
};

/**
 * The property API does not know the `propertyId` (a 404): waiting will not help, so no "try again
 * later" (the caller's property id is wrong or not set up there).
 */
export const UNKNOWN_PROPERTY: Texts = {
  units: {
    en: `${NOT_ON_RECORD.en} its available units. ${ASK_THE_OFFICE.en}`,
    es: `${NOT_ON_RECORD.es} sus unidades disponibles. ${ASK_THE_OFFICE.es}`,
  },
  floor_plans: {
    en: `${NOT_ON_RECORD.en} its floor plans. ${ASK_THE_OFFICE.en}`,
    es: `${NOT_ON_RECORD.es} sus planos de planta. ${ASK_THE_OFFICE.es}`,
  },
  tour_slots: {
    en: `${NOT_ON_RECORD.en} its tour times. ${ASK_THE_OFFICE.en}`,
    es: `${NOT_ON_RECORD.es} sus horarios de visita. ${ASK_THE_OFFICE.es}`,
  },
  neighborhood: {
    en: `${NOT_ON_RECORD.en} its neighborhood. ${ASK_THE_OFFICE.en}`,
    es: `${NOT_ON_RECORD.es} información de su vecindario. ${ASK_THE_OFFICE.es}`,
  },
};

/** The property API answered, with an empty list. */
export const NOTHING_LISTED: Texts = {
  units: {
    en: 'No units are available right now. Please check back soon or contact the leasing office.',
    es: 'No hay unidades disponibles en este momento. Vuelva a consultar pronto o comuníquese con la oficina de arrendamiento.',
  },
  floor_plans: {
    en: 'No floor plans are listed right now. Please contact the leasing office for details.',
    es: 'No hay planos de planta publicados en este momento. Comuníquese con la oficina de arrendamiento para más detalles.',
  },
  tour_slots: {
    en: 'There are no open tour times right now. Please check back soon or contact the leasing office to arrange a visit.',
    es: 'No hay horarios de visita disponibles en este momento. Vuelva a consultar pronto o comuníquese con la oficina de arrendamiento para coordinar una visita.',
  },
  neighborhood: {
    en: "I don't have neighborhood details for this property right now. The leasing office can tell you more about the area.",
    es: 'No tengo detalles del vecindario de esta propiedad en este momento. La oficina de arrendamiento puede darle más información sobre la zona.',
  },
};

/** Tour scheduling is off for the property (tourScheduleEnabled false): the office books tours. */
export const TOURS_BY_OFFICE: Record<Lang, string> = {
  en: 'Tours are scheduled directly by our leasing office. Please call or visit the office and they will find a time that works for you.',
  es: 'Las visitas se programan directamente con nuestra oficina de arrendamiento. Llame o visite la oficina y le ayudarán a encontrar un horario conveniente.',
};

/** "There are 2 more units." when a list was cut short; empty when nothing was left out. */
export function moreOf(topic: 'units' | 'floor_plans', left: number, lang: Lang): string {
  if (left <= 0) return '';
  const noun = topic === 'units'
    ? (lang === 'es' ? (left === 1 ? 'unidad' : 'unidades') : (left === 1 ? 'unit' : 'units'))
    : (lang === 'es' ? (left === 1 ? 'plano' : 'planos') : (left === 1 ? 'floor plan' : 'floor plans'));
  if (lang === 'es') return `Hay ${left} ${noun} más.`;
  return left === 1 ? `There is 1 more ${noun}.` : `There are ${left} more ${noun}.`;
}
