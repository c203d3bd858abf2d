/**
 * Server-sent events, parsed as the text arrives (the WHATWG event-stream format): `data:` lines
 * are joined with line feeds and an event is dispatched at each blank line; comments (`:`) and
 * other fields are ignored. Only the unparsed tail is kept, so the work is linear in the text.
 */
const LINE_END = /\r\n|\r|\n/g;

export class SseLines {
  #tail = '';
  #data: string[] = [];

  /** Feeds decoded text; `onEvent` gets the data of each complete event, in order. */
  push(text: string, onEvent: (data: string) => void): void {
    const buffer = this.#tail + text;
    let start = 0;
    LINE_END.lastIndex = 0;
    for (let m = LINE_END.exec(buffer); m !== null; m = LINE_END.exec(buffer)) {
      // A lone CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (m[0] === '\r' && m.index === buffer.length - 1) break;
      this.#line(buffer.slice(start, m.index), onEvent);
      start = m.index + m[0].length;
    }
    this.#tail = buffer.slice(start);
  }

  #line(line: string, onEvent: (data: string) => void): void {
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
