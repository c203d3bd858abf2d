/** Lower-case and strip accents, so words compare as people type them: "María" -> "maria". */
export function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
