/**
 * Finds the regular expression literals of a TypeScript / JavaScript source text, so that a test can
 * check every one of them without a list kept by hand. A small tokenizer, not a parser: it skips
 * comments, strings and template literals (with their `${}` parts), and reads a `/` as the start of
 * a regex where an expression may begin (after an operator, an opening bracket, a comma, `return`,
 * ...) and as division after a value (a name, a number, `)` or `]`).
 */

export interface RegexLiteral {
  readonly source: string;
  readonly flags: string;
  /** 1-based line of the opening `/`. */
  readonly line: number;
}

/** Words after which an expression (so a regex) begins; any other word is a value, and `/` divides it. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else',
  'yield', 'await', 'extends',
]);

const isWordChar = (c: string): boolean => /[\p{L}\p{N}_$]/u.test(c);

/** Index just past the string literal that opens at `start` (quote `'` or `"`). */
function skipString(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Index just past the regex literal that opens at `start`, and its body and flags. */
function readRegex(text: string, start: number): { end: number; source: string; flags: string } {
  let i = start + 1;
  let inClass = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '\n') throw new Error(`unterminated regex literal at offset ${start}`);
    else {
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
      i += 1;
    }
  }
  const source = text.slice(start + 1, i);
  let end = i + 1;
  while (end < text.length && /[a-z]/.test(text[end] ?? '')) end += 1;
  return { end, source, flags: text.slice(i + 1, end) };
}

export interface RegexSites {
  readonly literals: RegexLiteral[];
  /** 1-based lines of each `RegExp(` (with or without `new`) in code: patterns built at run time. */
  readonly constructed: number[];
}

/** Every regex literal in `text`, in order, and where a RegExp is built from a string. */
export function regexSites(text: string): RegexSites {
  const found: RegexLiteral[] = [];
  const constructed: number[] = [];
  // Open template literals: for each, the brace depth of the `${}` part being read (-1: in the text part).
  const templates: number[] = [];
  let expressionMayStart = true;
  let line = 1;
  let i = 0;
  const countLines = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) if (text[k] === '\n') line += 1;
  };
  while (i < text.length) {
    const inTemplateText = templates.length > 0 && templates.at(-1) === -1;
    const c = text[i] ?? '';
    if (inTemplateText) {
      if (c === '\\') i += 2;
      else if (c === '`') { templates.pop(); i += 1; expressionMayStart = false; }
      else if (c === '$' && text[i + 1] === '{') { templates[templates.length - 1] = 0; i += 2; expressionMayStart = true; }
      else { if (c === '\n') line += 1; i += 1; }
      continue;
    }
    if (c === '\n') { line += 1; i += 1; continue; }
    if (/\s/.test(c)) { i += 1; continue; }
    if (c === '/' && text[i + 1] === '/') { const eol = text.indexOf('\n', i); i = eol === -1 ? text.length : eol; continue; }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : close + 2;
      countLines(i, end);
      i = end;
      continue;
    }
    if (c === "'" || c === '"') { const end = skipString(text, i); countLines(i, end); i = end; expressionMayStart = false; continue; }
    if (c === '`') { templates.push(-1); i += 1; continue; }
    if (c === '/') {
      if (expressionMayStart) {
        const { end, source, flags } = readRegex(text, i);
        found.push({ source, flags, line });
        i = end;
        expressionMayStart = false;
      } else {
        i += 1;
        expressionMayStart = true;
      }
      continue;
    }
    if (isWordChar(c)) {
      let end = i + 1;
      while (end < text.length && isWordChar(text[end] ?? '')) end += 1;
      const word = text.slice(i, end);
      if (word === 'RegExp' && /^\s*\(/.test(text.slice(end, end + 20))) constructed.push(line);
      expressionMayStart = KEYWORDS_BEFORE_EXPRESSION.has(word);
      i = end;
      continue;
    }
    if (templates.length > 0) {
      const depth = templates.at(-1) ?? 0;
      if (c === '{') templates[templates.length - 1] = depth + 1;
      else if (c === '}') {
        if (depth === 0) { templates[templates.length - 1] = -1; i += 1; continue; }
        templates[templates.length - 1] = depth - 1;
      }
    }
    // After a closing bracket a value ends (`a[i] / 2`, `f(x) / 2`); after any other punctuation an expression may start.
    expressionMayStart = !(c === ')' || c === ']' || c === '}');
    i += 1;
  }
  return { literals: found, constructed };
}
