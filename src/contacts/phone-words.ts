/**
 * The words around a digit run that say what it is, in English and Spanish, compared accent-free and
 * lower-cased ("Teléfono" -> "telefono"). A phone cue ("call me at", "mi cel es", "WhatsApp") makes a
 * possible number a phone; a label of something else ("unit", "confirmation", "reserva", "piso",
 * "rent") makes the digits after it that thing, even when a phone cue sits further back.
 */
import type { CountryCode } from 'libphonenumber-js';

const list = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/**
 * Whole words that announce a phone number. "llamo", "llama" and "llaman" are left out on purpose:
 * they also name people ("me llamo Ana", "se llama Luis").
 */
export const PHONE_WORDS = list(`
  call calls calling phone phones telephone ph tel tele cell cellphone cel celu mobile mob text texts
  texting txt sms whatsapp whatsap whats wa wsp wpp dial ring reach landline line hotline fax
  telefono telefonos celular celulares movil moviles wasap guasap marcar marcame marqueme
  llamame llameme llamenme llamarme llamar llamen llame llamada llamadas llamando llamanos llamenos
  llamarnos comunicarse comunicarme comunicate comuniquese localizarme localizar mensaje mensajes
  contactarme contactar contacto contact contactame contacteme
`);

/** Words that only say "number" ("my number is", "número de ..."): a cue unless a label qualifies them. */
export const GENERIC_NUMBER_WORDS = list(`number numbers num nro no numero numeros #`);

/**
 * Labels of digits that are not a phone: homes and floors, money, ids of bookings, orders and cases,
 * codes, addresses. Checked before the phone cues: "número de reserva", "confirmation number".
 */
export const NOT_PHONE_WORDS = list(`
  unit units apt apto apartment apartments apartamento apartamentos depto departamento dept suite ste
  room rooms cuarto habitacion floor fl piso planta building bldg edificio tower torre lot
  confirmation confirmacion conf booking bookings reserva reservas reservation reservacion order
  orden pedido ticket tickets case caso claim folio id ref reference referencia account acct cuenta
  invoice factura receipt recibo tracking rastreo policy poliza lease contrato code codigo zip
  postal pin permit license licencia serial model vin member membership socio application solicitud
  rent renta alquiler price precio cost costo deposit deposito budget presupuesto income ingresos
  salary salario sueldo ssn itin ein payment pago check cheque amount monto total balance saldo
  calle street avenue ave avenida av blvd boulevard road box apartado gate door puerta mailbox buzon
  year years ano anos sqft sq square meters metros pies
  report reporte request requests incident incidente complaint queja
`);

/**
 * Labels of ids (bookings, orders, cases, accounts, codes): digits after them are the id's, also
 * when spaced like a short number then a phone ("ticket 57 310 558 2291"). A subset of NOT_PHONE_WORDS.
 */
export const ID_WORDS = list(`
  confirmation confirmacion conf booking bookings reserva reservas reservation reservacion order
  orden pedido ticket tickets case caso claim folio id ref reference referencia account acct cuenta
  invoice factura receipt recibo tracking rastreo policy poliza code codigo zip postal pin permit
  license licencia serial model vin member membership socio report reporte request requests
  incident incidente complaint queja
`);

export type Label = 'phone' | 'not-phone' | 'number';

/** What one (folded) word says about the digits that follow it, or null when it says nothing. */
export function labelOf(folded: string): Label | null {
  const word = folded.replace(/['’]s$/, '');
  if (NOT_PHONE_WORDS.has(word)) return 'not-phone';
  if (PHONE_WORDS.has(word)) return 'phone';
  if (GENERIC_NUMBER_WORDS.has(word)) return 'number';
  return null;
}

/**
 * Countries named near a number ("mi whatsapp es 55 1234 5678 de México", "my UK mobile"): the
 * number is read in that country's plan when the default region does not fit it.
 */
export const COUNTRY_WORDS: ReadonlyMap<string, CountryCode> = new Map(Object.entries({
  mexico: 'MX', mexicano: 'MX', mexicana: 'MX', mexican: 'MX',
  espana: 'ES', spain: 'ES', espanol: 'ES', espanola: 'ES',
  colombia: 'CO', colombiano: 'CO', colombiana: 'CO', colombian: 'CO',
  venezuela: 'VE', venezolano: 'VE', venezolana: 'VE',
  argentina: 'AR', argentino: 'AR', peru: 'PE', peruano: 'PE', peruana: 'PE',
  chile: 'CL', chileno: 'CL', chilena: 'CL', ecuador: 'EC', ecuatoriano: 'EC', ecuatoriana: 'EC',
  guatemala: 'GT', honduras: 'HN', nicaragua: 'NI', salvador: 'SV', panama: 'PA', cuba: 'CU',
  brasil: 'BR', brazil: 'BR', uk: 'GB', england: 'GB', britain: 'GB', inglaterra: 'GB',
  france: 'FR', francia: 'FR', germany: 'DE', alemania: 'DE',
  // Cities named beside a number ("55 1834 5678 de cdmx", "mi cel de Bogotá").
  cdmx: 'MX', guadalajara: 'MX', monterrey: 'MX', tijuana: 'MX', puebla: 'MX', cancun: 'MX',
  bogota: 'CO', medellin: 'CO', barranquilla: 'CO', madrid: 'ES', barcelona: 'ES', sevilla: 'ES',
} satisfies Record<string, CountryCode>));
