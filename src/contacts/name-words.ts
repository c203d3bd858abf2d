/**
 * Word lists for name extraction. All entries are lower-case and without accents (lookups fold
 * accents first), so "sábado" and "sabado" are both caught by "sabado".
 */

const list = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Words that can never be (part of) a person's name in these messages. */
export const NOT_A_NAME = list(`
  hi hello hey hola buenas buenos dias tardes noches morning afternoon evening good thanks thank gracias
  please por favor ok okay yes no si sure dear regards saludos cheers
  monday tuesday wednesday thursday friday saturday sunday weekend today tomorrow tonight yesterday
  lunes martes miercoles jueves viernes sabado domingo hoy manana ayer
  january february march april may june july august september october november december
  enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
  unit units apt apartment apartments apartamento apartamentos depto departamento unidad studio estudio
  bedroom bedrooms bed beds bath baths bathroom room rooms loft townhome townhomes penthouse condo house
  pool gym parking garage office lobby building floor plan plans lease rent deposit tour tours amenities
  recamara recamaras habitacion habitaciones bano banos piscina gimnasio estacionamiento oficina renta
  interested interesada interesado interesting looking calling writing texting reaching asking wondering
  trying checking moving living staying working available ready new here there still also just really
  so very too not sorry glad happy good fine great well sick tired frustrated upset confused concerned
  urgent emergency important serious broken leaking about regarding re for from at in on of to with by
  and or but the a an my your his her their our its this that these those it i im me we us you he she they
  who what when where why how which is are was were be been am do does did have has had will would can
  could should may might must need want like love let get got make take going
  tenant tenants resident residents owner landlord manager agent neighbor roommate wife husband mom dad
  mother father son daughter family friend student nurse doctor teacher someone somebody anyone everyone
  y o de del la las el los un una unos unas en con para por que mi mis tu su sus es son soy esta estoy
  muy mas tambien ya aqui alli nuevo nueva nuevos estudiante inquilino inquilina residente propietario
  propietaria dueno duena esposo esposa mama papa hijo hija amigo amiga vecino vecina senor senora
  quiero busco necesito tengo vivo trabajo llamo escribo pregunto interesa gusta puedo quisiera
  ingles espanol english spanish latino latina americano americana cubano cubana mexicano mexicana
  miami florida texas california york
`);

/** Honorifics skipped before a name ("this is Dr. Amanda Ruiz" -> "Amanda Ruiz"). */
export const TITLES = list(`mr mrs ms miss mx dr prof sr sra srta don dona doctor doctora lic ing`);

/** Generational suffixes kept after a surname ("Robert Johnson Jr."). */
export const SUFFIXES = list(`jr sr ii iii iv`);

/** Lower-case particles inside a surname ("Juan Carlos de la Cruz"), kept only between name words. */
export const PARTICLES = list(`de del la las los da das do dos di du van von der den le bin ibn al`);

/**
 * Words that introduce a name, strongest first. `strong` cues ("my name is") make any plausible
 * word after them a name, lower-case included; `weak` cues ("I'm", "soy") also introduce states
 * ("I'm interested", "soy estudiante"), so the word after them must look like a name.
 */
export const INTRO_CUES: ReadonlyArray<{ pattern: RegExp; strong: boolean }> = [
  { pattern: /\bmy\s+name\s+is\s+/giu, strong: true },
  { pattern: /\bmy\s+name['’]?s\s+/giu, strong: true },
  { pattern: /\bname['’]s\s+/giu, strong: true },
  { pattern: /\bme\s+llamo\s+/giu, strong: true },
  { pattern: /\bmi\s+nombre\s+es\s+/giu, strong: true },
  { pattern: /\bthis\s+is\s+/giu, strong: false },
  { pattern: /\bi\s+am\s+/giu, strong: false },
  { pattern: /\bi['’]?m\s+/giu, strong: false },
  { pattern: /(?<![\p{L}])soy\s+/giu, strong: false },
  { pattern: /(?<![\p{L}])(?:le\s+|les\s+)?habla\s+/giu, strong: false },
  { pattern: /\bit['’]s\s+/giu, strong: false },
];

/** Closings after which a signature name may follow ("Thanks, Sarah" / "- David Brown"). */
export const SIGN_OFF = /(?:^|[\s!.,])(?:thanks|thank\s+you|regards|best|cheers|gracias|saludos|atentamente)[\s!.,]*[-–—]?\s*|(?:^|\s)[-–—]\s*/giu;

/** Words before a name that address somebody else ("Hi Sarah", "speak with Maria"). */
export const ADDRESSING_BEFORE = /(?:\b(?:hi|hello|hey|dear|with|to|for|ask|tell|hola|con|a|para|que)[\s,]*)$/iu;
