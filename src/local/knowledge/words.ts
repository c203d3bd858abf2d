import { AggressiveTokenizerEs } from '../natural-parts.ts';

// The Spanish aggressive tokenizer keeps accented letters together ("Pérez", "recámara");
// natural's WordTokenizer would split them ("P", "rez"). It is ASCII-safe for English too.
const tokenizer = new AggressiveTokenizerEs();

export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Lower-case words of a message in either language, accents kept (the Spanish stemmer needs them). */
export function words(text: string): string[] {
  return tokenizer.tokenize(text.normalize('NFC').toLowerCase()).filter((w) => w.length > 0);
}
