/**
 * Text compared as people type it: lower case, without accents or other combining marks, and with
 * compatibility forms folded ("María" -> "maria", "ﬁ" -> "fi", a full-width "Ａ" -> "a"). Pure and
 * linear; used by the session cache's question comparison and by language detection, so both fold
 * a word the same way.
 */
const MARKS = /\p{M}+/gu;

export function foldAccents(text: string): string {
  // Lower case before the marks go: 'İ' lowers to 'i' and a combining dot.
  return text.normalize('NFKD').toLowerCase().replace(MARKS, '');
}
