/**
 * Reply formatting by retrieval type (docs/api.md#reply-formatting). Pure functions: text in, text out, in time linear
 * in the text (docs/api.md#limits): no pattern here can retry a long stretch of text from many starting
 * points. A delimited span (a link, bold, italics) excludes its own opening delimiter, so the scans
 * from two openings never overlap; test/hostile/regex-safety.test.ts checks every pattern.
 */
import type { RetrievalType } from '../../schemas/chat-response.schema.ts';
import type { EngineDataItem } from '../../schemas/engine.schema.ts';

export const CONCISE_MAX_CHARS = 500;

const LINE_BREAKS = /\r\n?/g;
const WHITE_SPACE_RUN = /\s+/g;
/** White space that WHITE_SPACE_RUN would change: a run of two, or one that is not a plain space. */
const NOT_SINGLE_SPACED = /\s\s|[^\S ]/;
const BLANKS_RUN = /[ \t]+/g;
const EXTRA_BLANK_LINES = /\n{3,}/g;
const UNDERSCORES = /_/g;
/** A sentence ends at . ! ? … followed by space, but not after an abbreviation ("Dr.", "a.m."). */
const SENTENCE_END = /(?<![\s(](?:Dr|Mr|Mrs|Ms|Jr|Sr|Sra|Srta|St|Ave|Apt|a\.m|p\.m|e\.g|i\.e|approx)\.)(?<=[.!?…])\s+/i;
const LIST_MARKER = /^[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t]+/;
const LIST_MARKERS = new RegExp(LIST_MARKER.source, 'gm');

/** `node` + `neighborhood_summary`: the whole text, paragraphs kept, line endings normalised, nothing cut. */
export function verbose(text: string): string {
  return text
    .replace(LINE_BREAKS, '\n')
    .split('\n')
    .map((line) => line.replace(BLANKS_RUN, ' ').trimEnd())
    .join('\n')
    .replace(EXTRA_BLANK_LINES, '\n\n')
    .trim();
}

/**
 * Markdown markup and what each is replaced with; compiled once, applied in order. A rule runs only
 * when the text holds one of its triggers, without which it cannot match: most replies hold little
 * markup, and a global replace scans the whole text even when nothing matches.
 */
const MARKDOWN_RULES: ReadonlyArray<readonly [RegExp, string, readonly string[]]> = [
  [/!\[([^[\]]*)\]\([^()]*\)/g, '$1', ['](']], // images -> alt text
  [/\[([^[\]]+)\]\([^()]*\)/g, '$1', ['](']], // links -> text
  [/`{1,3}([^`]*)`{1,3}/g, '$1', ['`']], // code
  [/\*\*([^*\n]+)\*\*/g, '$1', ['**']], // bold
  [/__([^_\n]+)__/g, '$1', ['__']],
  [/(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])/g, '$1', ['*']], // italics
  [/(?<![\w_])_(?!\s)([^_\n]+?)(?<!\s)_(?![\w_])/g, '$1', ['_']],
  [/~~([^~\n]+)~~/g, '$1', ['~~']], // strike-through
  [/^\s{0,3}#{1,6}\s+/gm, '', ['#']], // headings
  [/^\s{0,3}>\s?/gm, '', ['>']], // block quotes
  [LIST_MARKERS, '', []], // list bullets: any line may start with one
];

/** Removes Markdown markup, keeping the words. */
export function stripMarkdown(text: string): string {
  let out = text;
  for (const [pattern, replacement, triggers] of MARKDOWN_RULES) {
    if (triggers.length === 0 || triggers.some((t) => out.includes(t))) out = out.replace(pattern, replacement);
  }
  return out;
}

const HIGH_SURROGATE_AT_END = /[\uD800-\uDBFF]$/;
const TRAILING_PUNCTUATION = new Set([',', ';', ':', '.', '-']);

/** Without trailing white space and `,;:.-`: a loop, as `/[\s,;:.-]+$/` retries from every character of a run. */
function trimTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0) {
    const c = text.charAt(end - 1);
    if (!TRAILING_PUNCTUATION.has(c) && c.trim() !== '') break;
    end -= 1;
  }
  return text.slice(0, end);
}

function cutAtWord(sentence: string, max: number): string {
  let room = sentence.slice(0, max - 1);
  // Never leave half of a surrogate pair (an emoji) at the cut.
  if (HIGH_SURROGATE_AT_END.test(room)) room = room.slice(0, -1);
  const lastSpace = room.lastIndexOf(' ');
  const cut = lastSpace > max / 2 ? room.slice(0, lastSpace) : room;
  return `${trimTrailingPunctuation(cut)}…`;
}

/** `rag`, `fixed`, `adapter`, `spf`: one paragraph, markup removed, whole sentences up to 500 characters. */
export function concise(text: string, max = CONCISE_MAX_CHARS): string {
  const stripped = stripMarkdown(text.includes('\r') ? text.replace(LINE_BREAKS, '\n') : text);
  // Most replies are already one paragraph with single spaces: rebuilt only when they are not.
  const paragraph = (NOT_SINGLE_SPACED.test(stripped) ? stripped.replace(WHITE_SPACE_RUN, ' ') : stripped).trim();
  if (paragraph.length <= max) return paragraph;
  const sentences = paragraph.split(SENTENCE_END);
  let out = '';
  for (const sentence of sentences) {
    const next = out === '' ? sentence : `${out} ${sentence}`;
    if (next.length > max) break;
    out = next;
  }
  return out !== '' ? out : cutAtWord(sentences[0] ?? paragraph, max);
}

function fieldValue(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    const parts = value.map(fieldValue).filter((v): v is string => v !== undefined);
    return parts.length > 0 ? parts.join(', ') : undefined;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(WHITE_SPACE_RUN, ' ').trim();
}

/** One `data` item as a Markdown list line: name in bold, then its fields. */
export function markdownItem(item: EngineDataItem): string {
  const fields = Object.entries(item)
    .filter(([key]) => key !== 'name')
    .map(([key, value]) => [key.replace(UNDERSCORES, ' '), fieldValue(value)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
    .map(([key, value]) => `${key}: ${value}`);
  const name = fieldValue(item.name) ?? 'Item';
  return fields.length > 0 ? `- **${name}**: ${fields.join(', ')}` : `- **${name}**`;
}

/** `node` (not neighborhood summary): `data` as a Markdown list, or list-like lines made into `- ` bullets. */
export function markdown(text: string, data?: readonly EngineDataItem[]): string {
  const intro = verbose(text);
  if (data && data.length > 0) {
    const list = data.map(markdownItem).join('\n');
    return intro === '' ? list : `${intro}\n\n${list}`;
  }
  return intro
    .split('\n')
    .map((line) => (LIST_MARKER.test(line) ? line.replace(LIST_MARKER, '- ') : line))
    .join('\n');
}

export type ReplyStyle = 'verbose' | 'markdown' | 'concise';

/** Processing rule 5: which style a reply gets. */
export function replyStyle(retrievalType: RetrievalType, subIntent: string): ReplyStyle {
  if (retrievalType === 'node') return subIntent === 'neighborhood_summary' ? 'verbose' : 'markdown';
  return 'concise';
}

export function formatByRetrievalType(
  reply: { response: string; retrieval_type: RetrievalType; sub_intent: string; data?: readonly EngineDataItem[] | undefined },
): string {
  switch (replyStyle(reply.retrieval_type, reply.sub_intent)) {
    case 'verbose':
      return verbose(reply.response);
    case 'markdown':
      return markdown(reply.response, reply.data);
    case 'concise':
      return concise(reply.response);
  }
}
