import { normalizeSpace, type PhraseTable } from './phrase-table.ts';

export interface Translation {
  readonly text: string;
  /** English pieces with no known translation, passed through unchanged. */
  readonly untranslated: readonly string[];
  /** How many pieces (sentences, list names, keys, values) were looked up. */
  readonly pieces: number;
}

// The rest of a line is `[^]*` (anything), not `.*$`: a rest that cannot fail is never retried
// from another split of the white space before it (linear time, docs/api.md#limits).
const LIST_LINE = /^(\s*(?:[-*+•]|\d+[.)])\s+)([^]*)/;
const HEADING = /^(\s*#{1,6}\s+)([^]*)/;
const BOLD_NAME = /^(\*\*|__)(.+?)\1(:?)\s*([^]*)/;
// Fields of a rendered data item: "key: value, key: value" (a comma inside a value is kept when
// what follows it is not "key:"). The key starts after the white space, never inside it.
const FIELD_SPLIT = /,\s+(?=[^,:\s][^,:]*:\s)/;
const SENTENCE_END = /(?<=[.!?…])\s+/;
const HAS_LETTER = /\p{L}/u;

function stripMarkdown(text: string): string {
  return text.replace(/\*\*|__|`/g, '');
}

/**
 * English -> Spanish by phrase table, shaped for what the service sends: a concise paragraph
 * (white space collapsed), a verbose text (paragraphs kept) or Markdown whose data items are
 * `- **<name>**: <key>: <value>, <key>: <value>` lines. Text is split into sentences and list
 * parts, each looked up; unknown English passes through unchanged and is reported.
 */
export function createTranslator(table: PhraseTable): (text: string) => Translation {
  return (text) => {
    const untranslated: string[] = [];
    let pieces = 0;

    const piece = (raw: string): string => {
      const s = raw.trim();
      if (!HAS_LETTER.test(s)) return s; // numbers, prices, dates: the same in both languages
      pieces += 1;
      const found = table.lookup(s) ?? table.lookup(stripMarkdown(s));
      if (found !== undefined) return found;
      untranslated.push(normalizeSpace(s));
      return s;
    };

    const sentences = (line: string): string => {
      const whole = table.lookup(stripMarkdown(line));
      if (whole !== undefined) { pieces += 1; return whole; }
      return normalizeSpace(line).split(SENTENCE_END).map(piece).join(' ');
    };

    const fields = (rest: string): string =>
      rest.split(FIELD_SPLIT).map((field) => {
        const colon = field.indexOf(': ');
        return colon < 0 ? piece(field) : `${piece(field.slice(0, colon))}: ${piece(field.slice(colon + 2))}`;
      }).join(', ');

    const listItem = (body: string): string => {
      const bold = BOLD_NAME.exec(body);
      if (bold) {
        const [, mark = '**', name = '', colon = '', rest = ''] = bold;
        return `${mark}${piece(name)}${mark}${colon}${rest === '' ? '' : ` ${fields(rest)}`}`;
      }
      return table.lookup(stripMarkdown(body)) !== undefined || !body.includes(': ') ? sentences(body) : fields(body);
    };

    // Consecutive prose lines form one block (a sentence may be wrapped over several lines);
    // list items, headings and blank lines keep their own line.
    const out: string[] = [];
    let prose: string[] = [];
    const flush = () => {
      if (prose.length > 0) out.push(sentences(prose.join(' ')));
      prose = [];
    };
    for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
      const list = LIST_LINE.exec(line);
      const heading = HEADING.exec(line);
      if (line.trim() !== '' && !list && !heading) { prose.push(line); continue; }
      flush();
      if (list) out.push(`${list[1] ?? ''}${listItem(list[2] ?? '')}`);
      else if (heading) out.push(`${heading[1] ?? ''}${sentences(heading[2] ?? '')}`);
      else out.push('');
    }
    flush();
    return { text: out.join('\n'), untranslated, pieces };
  };
}
