/**
 * fast-check arbitraries for text a hostile or unlucky caller (or party) may send: any Unicode
 * (astral characters, emoji, right-to-left scripts, combining marks), lone surrogates, the names of
 * Object.prototype's members as words, and long runs of the characters that make naive patterns
 * backtrack (spaces, "@", "*", "[", "(").
 */
import fc from 'fast-check';

export const PROTOTYPE_NAMES: readonly string[] = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

export const MESSAGE_MAX_CHARS = 4000;

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const SPECIALS = ['😀', '👩‍👩‍👧', '🇺🇸', 'ع', 'שלום', '\u200f', '\u202e', 'ñ', 'é', 'e\u0301', '¿', '¡', '\u2028', '\t', '\n', '\r\n', ' ', '@', '*', '_', '[', ']', '(', ')', '`', '~', '#', '>', '-', '.', ',', '0', '5'];

/** Short pieces, glued together into a text. */
const piece = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: codeUnit, maxLength: 4 }),
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.constantFrom(...SPECIALS),
  fc.constantFrom('hola', 'gracias', 'what', 'the', 'rent', "don't", '2br', '1,500', 'Saturday', '**bold**', '[link](x)', 'a@b.co', 'https://x.y'),
);

/** Any text up to `maxPieces` pieces (a few hundred characters at most). */
export const hostileText = (maxPieces = 40): fc.Arbitrary<string> => fc.array(piece, { maxLength: maxPieces }).map((parts) => parts.join(''));

/** A maximum-length text: one repeated unit that makes naive patterns backtrack, cut to `length` characters. */
export const longRun = (length = MESSAGE_MAX_CHARS): fc.Arbitrary<string> =>
  fc.constantFrom('😀', 'a@', '*a ', '**', '[(', '![](', ' ', '\n', 'a', '~~a', '_a ', 'x,\t', 'thanks Sarah ').map((unit) => {
    const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    return text;
  });

/** Letters, in order: what formatting must keep or drop but never add. */
export const lettersOf = (text: string): string => (text.match(/\p{L}/gu) ?? []).join('');

/** `part` is a subsequence of `whole` (each character of `part` found in order). */
export function isSubsequence(part: string, whole: string): boolean {
  let i = 0;
  for (const c of whole) {
    if (i < part.length && part.startsWith(c, i)) i += c.length;
  }
  return i === part.length;
}
