/**
 * Whether digits are written the way a phone number of their plan is written, and whether a North
 * American number has the shape of a reachable one.
 */
import type { PhoneNumber } from 'libphonenumber-js';

// An extension after the number ("ext. 3", "x12", ", extensión 204", "#4") is not part of its layout.
// (What precedes it is a separator between digit groups anyway; matching it too made the pattern cubic.)
const EXTENSION = /(?:ext\.?|extn\.?|extension|extensi[oó]n|x|#)\s*\d+\s*$/i;

const digitGroups = (written: string): string[] => written.replace(EXTENSION, '').split(/\D+/).filter((g) => g !== '');

/** `groups` is `format` with some neighbouring groups written together ("650 2530000"). */
function isMergeOf(groups: string[], format: string[]): boolean {
  let f = 0;
  for (const group of groups) {
    let joined = '';
    while (f < format.length && joined.length < group.length) joined += format[f++];
    if (joined !== group) return false;
  }
  return f === format.length;
}

/**
 * A typical phone layout: an international "+" form, all digits together, or the digit groups of
 * the plan's national format with any separators ("(210) 555-0150", "915.555.0188",
 * "1-512-555-0106", "210 5550150"). "55-8123-4567" is not a US layout (it is Mexico's).
 */
export function isTypicalLayout(written: string, number: PhoneNumber): boolean {
  if (/^\s*\+/.test(written)) return true;
  const groups = digitGroups(written);
  if (groups.length > 1 && groups[0] === number.countryCallingCode) groups.shift();
  const format = digitGroups(number.formatNational());
  if (groups.length === 1) return groups[0] === format.join('');
  return isMergeOf(groups, format);
}

/**
 * NANP numbers: area code and exchange never start with 0 or 1. "123-456-7890" is a placeholder
 * and "212-111-2233" cannot be dialled, whatever a cue says; area codes newer than the metadata
 * still have this shape, so it refuses no real number.
 */
export function isReachableShape(number: PhoneNumber): boolean {
  return number.countryCallingCode !== '1' || /^[2-9]\d{2}[2-9]\d{6}$/.test(number.nationalNumber);
}
