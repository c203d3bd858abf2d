/**
 * A message as the contact finders read it: composed Unicode (NFC, so "e" + U+0301 and "é" are one
 * letter) and without the invisible characters that chat apps, copy and paste and hostile senders
 * put inside words: zero-width spaces and joiners, byte-order marks, and left-to-right and
 * right-to-left marks, embeddings, overrides and isolates (WhatsApp wraps copied numbers in them).
 * Left in, such a character splits "jo\u200bhn@x.com" or "Jo\u200bhn" into a shorter, wrong value;
 * taken out, it can never be inside a name, a number or an address found. Spaces of other widths
 * become plain spaces.
 */

// U+200B-U+200F: zero-width space, non-joiner, joiner, LRM, RLM; U+202A-U+202E: bidi embeddings and
// overrides; U+2060-U+2069: word joiner, invisible operators, bidi isolates; U+FEFF: byte-order mark.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/gu;

// U+2000-U+200A (en, em, thin, hair, figure ... spaces), U+202F (narrow no-break space, which some
// keyboards and locales put between digit groups), U+205F, U+3000: read as a plain space, which
// they mean ("713\u202F448\u202F2290" is one number). One character for one, so offsets hold.
const ODD_SPACE = /[\u2000-\u200A\u202F\u205F\u3000]/gu;

export function cleanText(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE, '').replace(ODD_SPACE, ' ');
}
