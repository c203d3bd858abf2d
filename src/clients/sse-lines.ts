/**
 * Server-sent events, parsed as the text arrives (the WHATWG event-stream format): `data:` lines
 * are joined with line feeds and an event is dispatched at each blank line; comments (`:`) and
 * other fields are ignored. A line ends at CR, LF or CRLF.
 *
 * Each character is looked at once: a chunk is scanned from where the previous one ended, and an
 * unfinished line is kept as a list of pieces (joined once, when its end arrives), never as a
 * growing string scanned again with every chunk. A CR is a line end at once (a final event ending
 * in a lone CR is dispatched without waiting for more text); only an LF that directly follows it,
 * even in the next chunk, is skipped as the second half of a CRLF. A line longer than
 * `maxLineChars` throws the error `tooLong` builds (the engine's answer ceiling bounds it too).
 */
const CR = 0x0d;
const LF = 0x0a;

export class SseLines {
  readonly #maxLineChars: number;
  readonly #tooLong: () => Error;
  /** The pieces of the line not yet ended, and their length. */
  #pieces: string[] = [];
  #pieceChars = 0;
  /** The previous chunk ended in CR: an LF opening the next one ends no further line. */
  #afterCr = false;
  #data: string[] = [];
  /** Its own (stateful) line-end search: `lastIndex` is where the scan of a chunk goes on. */
  readonly #lineEnd = /[\r\n]/g;

  constructor(maxLineChars = 256 * 1024, tooLong: () => Error = () => new RangeError(`an event-stream line over ${maxLineChars} characters`)) {
    this.#maxLineChars = maxLineChars;
    this.#tooLong = tooLong;
  }

  /** Feeds decoded text; `onEvent` gets the data of each complete event, in order. */
  push(text: string, onEvent: (data: string) => void): void {
    let start = 0;
    if (this.#afterCr && text.charCodeAt(0) === LF) start = 1;
    if (text.length > 0) this.#afterCr = false;
    this.#lineEnd.lastIndex = start;
    for (let m = this.#lineEnd.exec(text); m !== null; m = this.#lineEnd.exec(text)) {
      const end = m.index;
      this.#grow(end - start);
      const line = this.#pieces.length === 0 ? text.slice(start, end) : this.#takeLine(text.slice(start, end));
      start = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (start === text.length) this.#afterCr = true;
        else if (text.charCodeAt(start) === LF) start += 1;
        this.#lineEnd.lastIndex = start;
      }
      this.#line(line, onEvent);
    }
    if (start < text.length) {
      this.#grow(text.length - start);
      this.#pieces.push(text.slice(start));
    }
  }

  #grow(chars: number): void {
    this.#pieceChars += chars;
    if (this.#pieceChars > this.#maxLineChars) throw this.#tooLong();
  }

  #takeLine(last: string): string {
    this.#pieces.push(last);
    const line = this.#pieces.join('');
    this.#pieces = [];
    return line;
  }

  #line(line: string, onEvent: (data: string) => void): void {
    this.#pieceChars = 0;
    if (line === '') {
      if (this.#data.length > 0) {
        const data = this.#data.join('\n');
        this.#data = [];
        onEvent(data);
      }
      return;
    }
    if (line.startsWith('data:')) this.#data.push(line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5));
  }
}
