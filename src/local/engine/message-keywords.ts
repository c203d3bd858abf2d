import { foldAccents } from '../knowledge/words.ts';

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(Object.entries({
  one: 1, two: 2, three: 3, four: 4, un: 1, una: 1, uno: 1, dos: 2, tres: 3, cuatro: 4,
}));
const BEDROOM_COUNT =
  /\b(\d|one|two|three|four|una?|uno|dos|tres|cuatro)[\s-]*(?:bed(?:room)?s?|br|bd|recamaras?|habitacion(?:es)?|dormitorios?|cuartos?)\b/;
const STUDIO = /\b(?:studios?|estudios?)\b/;

/** The bedroom count a message asks about (0 for a studio), for keyword_cache. */
export function bedroomCount(message: string): number | undefined {
  const text = foldAccents(message.toLowerCase());
  const match = BEDROOM_COUNT.exec(text);
  if (match?.[1] !== undefined) return NUMBER_WORDS.get(match[1]) ?? Number(match[1]);
  return STUDIO.test(text) ? 0 : undefined;
}

const FAREWELL = /\b(?:thanks|thank you|thx|bye|goodbye|see you|gracias|adios|hasta luego|nos vemos)\b/;
const HELLO = /\b(?:hi|hello|hey|hola|buenos|buenas|good (?:morning|afternoon|evening))\b/;

/** A greeting-class message that says goodbye or thanks (and not hello) gets a closing reply. */
export function isFarewell(message: string): boolean {
  const text = foldAccents(message.toLowerCase());
  return FAREWELL.test(text) && !HELLO.test(text);
}

const ASKS_FOR_PERSON =
  /\b(?:(?:real|live|actual) person|human|(?:leasing |real |live )?agent|representative|someone real|(?:una |un )?persona real|un humano|(?:un |una )?agente|asesor(?:a)?)\b/;

/**
 * An explicit request for a person. Contact details in the same message pull the classifier
 * towards `customer_info`; the request for a person is what the visitor wants done first.
 */
export function asksForPerson(message: string): boolean {
  return ASKS_FOR_PERSON.test(foldAccents(message.toLowerCase()));
}
