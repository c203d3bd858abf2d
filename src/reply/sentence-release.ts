/**
 * The concise rule (docs/api.md#reply-formatting, reply-styles.ts `concise`) applied while the text still arrives
 * (docs/api.md#streamed-replies): whole sentences are released as soon as they are certain to open the formatted
 * reply, so that what a streaming caller sees is always the start of the final `response`.
 *
 * A sentence is certain when it is plain text: concise() only removes Markdown markup and collapses
 * white space, and markup written later can change only what follows it. So a sentence holding a
 * markup character, or a line that opens like a list item, stops the release (the rest is written
 * when the reply is complete); so does the first sentence that would pass the 500-character limit.
 * Work is linear: text is kept only until it is released or the release stops, and the release
 * stops once the pending text could no longer fit under the limit.
 */
import { CONCISE_MAX_CHARS } from './reply-styles.ts';

/** The sentence boundary of concise(): white space after . ! ? … but not after an abbreviation ("Dr.", "a.m."). */
const SENTENCE_END = /(?<![\s(](?:Dr|Mr|Mrs|Ms|Jr|Sr|Sra|Srta|St|Ave|Apt|a\.m|p\.m|e\.g|i\.e|approx)\.)(?<=[.!?…])\s+/gi;
/** Characters of Markdown constructs that concise() removes or rewrites. */
const MARKUP = /[*_`[\]~#>]/;
/** A list item's opening, as concise() removes it at the start of a line (with the blank after it). */
const LIST_OPENING = /^[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t]/;
/** Line terminators as a multiline `^` sees them. */
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/;
const WHITE_SPACE_RUN = /\s+/g;
const LEADING_WHITE_SPACE = /^\s+/;

export class SentenceRelease {
  readonly #emit: (text: string) => void;
  readonly #max: number;
  /** Raw text after the last released sentence (its separating white space included). */
  #pending = '';
  #releasedChars = 0;
  #startOfText = true;
  #stopped = false;

  constructor(emit: (text: string) => void, max = CONCISE_MAX_CHARS) {
    this.#emit = emit;
    this.#max = max;
  }

  /** False once nothing more will be released before the reply is complete. */
  get releasing(): boolean {
    return !this.#stopped;
  }

  push(delta: string): void {
    if (this.#stopped) return;
    this.#pending += delta;
    if (this.#startOfText) {
      this.#pending = this.#pending.replace(LEADING_WHITE_SPACE, '');
      if (this.#pending === '') return;
    }
    SENTENCE_END.lastIndex = 0;
    let consumed = 0;
    for (let m = SENTENCE_END.exec(this.#pending); m !== null; m = SENTENCE_END.exec(this.#pending)) {
      const raw = this.#pending.slice(consumed, m.index);
      // The white space after the sentence decides whether its last line opens a list item.
      if (!this.#offer(raw, this.#pending.slice(consumed, m.index + m[0].length))) return this.#stop();
      consumed = m.index;
    }
    this.#pending = this.#pending.slice(consumed);
    // The next sentence could not fit any more (raw text is bounded too: white space collapses).
    const room = this.#max - this.#releasedChars - (this.#releasedChars === 0 ? 0 : 1);
    if (this.#pending.length > 2 * this.#max || this.#pending.trim().length > room) this.#stop();
  }

  /** Releases one sentence if it is certain; false when the release must stop. */
  #offer(raw: string, withFollowingSpace: string): boolean {
    if (MARKUP.test(raw)) return false;
    const lines = withFollowingSpace.split(LINE_BREAK);
    // The text's first line opens a line; a later chunk's first line continues one.
    for (let i = this.#startOfText ? 0 : 1; i < lines.length; i++) {
      if (LIST_OPENING.test(lines[i]!)) return false;
    }
    const sentence = raw.replace(WHITE_SPACE_RUN, ' ').trim();
    if (sentence === '') return true;
    const text = this.#releasedChars === 0 ? sentence : ` ${sentence}`;
    if (this.#releasedChars + text.length > this.#max) return false;
    this.#releasedChars += text.length;
    this.#startOfText = false;
    this.#emit(text);
    return true;
  }

  #stop(): void {
    this.#stopped = true;
    this.#pending = '';
  }
}
