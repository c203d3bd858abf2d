/**
 * Whether a message already says how to reach the visitor (an email address or a phone number), so
 * that the reply does not ask for contact details given a moment ago. Both checks are one pass over
 * the text: no regular expression that could backtrack over a 4,000-character message.
 */

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const PHONE_SEPARATORS = new Set([' ', '-', '.', '(', ')', '+', '/']);
const EMAIL_LOCAL = /[A-Za-z0-9._%+-]/;
const EMAIL_DOMAIN = /[A-Za-z0-9.-]/;

/** A run of digits and phone separators holding 10..15 digits, or exactly 7 ("555-2671"). */
function hasPhoneNumber(text: string): boolean {
  let digits = 0;
  for (const c of text + '\n') {
    if (isDigit(c)) digits += 1;
    else if (!PHONE_SEPARATORS.has(c)) {
      if (digits === 7 || (digits >= 10 && digits <= 15)) return true;
      digits = 0;
    }
  }
  return false;
}

/** Some `local@domain.tld`: an `@` with an address character before it and a dotted domain after. */
function hasEmailAddress(text: string): boolean {
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at === 0 || !EMAIL_LOCAL.test(text[at - 1]!)) continue;
    let end = at + 1;
    while (end < text.length && EMAIL_DOMAIN.test(text[end]!)) end += 1;
    // A full stop after the address ends the sentence, not the domain.
    let last = end;
    while (last > at + 1 && text[last - 1] === '.') last -= 1;
    let dot = last - 1;
    while (dot > at + 1 && text[dot] !== '.') dot -= 1;
    if (dot > at + 1 && last - dot > 2) return true;
    // The next `@` is searched from here: nothing before `end` is read again.
    at = Math.max(at, end - 1);
  }
  return false;
}

export function givesContact(message: string): boolean {
  return hasEmailAddress(message) || hasPhoneNumber(message);
}
