/**
 * Words that say whose a phone number or an address is, and which of two the visitor wants used
 * (docs/contracts.md#handoff-receiver), in English and Spanish, lower-case and accent-free. Kept as data; each list is
 * exercised by test/contacts/contact-preference.test.ts.
 */
const list = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Someone else's detail: a relative, a neighbour, or the property's own lines and pages. */
export const OTHER_OWNER_WORDS = list(`
  husband esposo wife esposa mom mother mama madre dad father papa padre son hijo daughter hija
  roommate companero companera neighbor neighbour vecino vecina boyfriend novio girlfriend novia
  brother hermano sister hermana friend amigo amiga grandma abuela grandpa abuelo landlord
  leasing desk management administracion gerencia maintenance mantenimiento website web
  sitio pagina ustedes your emergency emergencia voicemail buzon llamaron called left deje dejamos
  her his their
`);

/**
 * Departments and pages that own a number only when they name it ("the emergency line", "maintenance
 * number", "número de mantenimiento", "the number on the website"); otherwise they are what the
 * message is about ("emergency water leak 305 ...", "leasing question: 305 ...").
 */
export const TOPIC_OWNER_WORDS = list(`
  leasing desk management administracion gerencia maintenance mantenimiento website web sitio pagina
  emergency emergencia
`);

/** Words that name a line or a number, near which a department owns it. */
export const LINE_WORDS = list(`line lines linea lineas number numbers numero numeros phone telefono tel office oficina ext extension`);

/**
 * "office": the property's when "the", "your", "leasing", "la" ... stands before it ("I called your
 * office at", "llamé a la oficina al"), otherwise the visitor's own work line ("office line ...",
 * "my office phone").
 */
export const OFFICE_WORDS = list(`office oficina`);
export const PROPERTY_OFFICE_BEFORE = list(`the your leasing front management rental la a al de del ustedes su sus`);

/**
 * "su" (his, her, their, or your): someone else's detail when a relative or a neighbour was named
 * earlier in the sentence ("mi vecina Rosa perdió su llave, su número es ...").
 */
export const THIRD_PERSON_OWNER = list(`su sus`);

/** A detail the visitor is done with: "old number", "el anterior", "on file". */
export const OLD_WORDS = list(`old viejo vieja anterior antiguo antigua former previous file dont don't never nunca`);

/** The visitor's stated choice: "the new one", "use my personal", "mejor al mío", "instead". */
export const PREFERRED_WORDS = list(`
  new nuevo nueva instead mejor better prefer prefiero preferred personal mine mio mia use usen usa
  ahora now
`);

/** Details a visitor gives but prefers less when another is there: work, school, landline. */
export const SECOND_CHOICE_WORDS = list(`work trabajo school escuela job chamba business negocio landline fijo backup otro alternativo alternate`);

/**
 * "call 205 ...", "llámenme al ...": a request to be called right before a detail makes it the
 * writer's, whatever the clause said before ("I need maintenance in 3B call 205 ..."). Past tenses
 * ("called", "llamé" folded to "llame") are not requests and are left out.
 */
export const CALL_ME_WORDS = list(`
  call text txt reach contact llamar llamen llamame llameme llamenme marcar marcame marqueme
  contactar contactame contacteme escribeme escribanme
`);

/** "me", "my", "mi": the nearest of these before a detail makes it the writer's own. */
export const SELF_WORDS = list(`me my mi i im yo`);

/** After a detail: it does not work or is not for use ("is wrong", "no contesta", "goes to voicemail"). */
export const NOT_FOR_USE_AFTER = list(`
  wrong equivocado incorrecto busy ocupada ocupado voicemail buzon old viejo vieja anterior
  contesta contestan sirve answered answer works working
`);

/** Kinds of line a visitor can name in a closing preference ("cell is better", "mejor al celular"). */
export const LINE_KINDS = list(`cell celular cel mobile movil personal home casa work trabajo whatsapp`);
