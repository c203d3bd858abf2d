import { describe, expect, it } from 'vitest';
import { regexSites } from './regex-literals.ts';
import { regexInventory, type FoundRegex, type Inventory } from './regex-inventory.ts';
import { patternKey, verdicts } from './regex-verdicts.ts';

/*
 * docs/api.md#limits: no processing of a caller's or a party's text is worse than linear. Every regular
 * expression under src/ and steps/ (found automatically: a new one is checked the day it is added)
 * is proven free of super-linear backtracking by recheck. Before, it flagged among others
 * `\S+@\S+` in language detection and four of the Markdown rules of reply formatting.
 *
 * Only patterns that never see a caller's or a party's text may be exempt, each named here with
 * its file, its exact text and why.
 */

/** libphonenumber-js's white-space class (findNumbers/utf-8.js) as RegExp#source spells it (line separators escaped). */
const LIBPHONENUMBER_SPACES = ' \xA0\u1680\u180E\u2000-\u200A\\u2028\\u2029\u202F\u205F\u3000';
const LIBPHONENUMBER_SPACE = `[${LIBPHONENUMBER_SPACES}]`;
const LIBPHONENUMBER_NOT_SPACE = `[^${LIBPHONENUMBER_SPACES}]`;

const NOT_ON_CALLER_OR_PARTY_TEXT: ReadonlyArray<{ file: string; source: string; why: string }> = [
  { file: 'src/config/load-config.ts', source: '\\/+$', why: 'a configured URL, read once at start-up' },
  { file: 'src/config/env-parsers.ts', source: '\\/+$', why: 'a configured URL, read once at start-up' },
  { file: 'src/config/sampler-config.ts', source: '^\\d*\\.?\\d+$', why: 'OTEL_TRACES_SAMPLER_ARG, read once at start-up' },
  { file: 'src/clients/party-pool.ts', source: '\\/+$', why: "a party's configured base URL" },
  { file: 'src/telemetry/fast/client-span.ts', source: '\\/+$', why: "a party's configured base URL" },
  { file: 'src/telemetry/tracing.ts', source: '\\/+$', why: 'the configured OTLP endpoint' },
  // libphonenumber-js builds these when its matcher starts (the contact finders run once before the
  // service listens) and applies them only to a candidate its own bounded PATTERN found (at most a few
  // hundred characters), never to a whole message.
  { file: 'src/contacts/phone.ts', source: `\\.+${LIBPHONENUMBER_SPACE}*([^.]+)`, why: "libphonenumber's inner match, on a bounded candidate" },
  { file: 'src/contacts/phone.ts', source: `${LIBPHONENUMBER_SPACE}+(${LIBPHONENUMBER_NOT_SPACE}+)`, why: "libphonenumber's inner match, on a bounded candidate" },
  // The playground page runs in the visitor's browser on the reply it shows, never in the service.
  { file: 'src/http/playground/markdown.js', source: '__(?=\\S)(.+?)(?<=\\S)__', why: 'browser page' },
  { file: 'src/http/playground/markdown.js', source: '\\*\\*(?=\\S)(.+?)(?<=\\S)\\*\\*', why: 'browser page' },
  { file: 'src/http/playground/markdown.js', source: '^\\s*[-*•+]\\s+(.*)$', why: 'browser page' },
  { file: 'src/http/playground/markdown.js', source: '^\\s*\\d{1,3}[.)]\\s+(.*)$', why: 'browser page' },
];

const isExempt = (r: FoundRegex): boolean => NOT_ON_CALLER_OR_PARTY_TEXT.some((e) => e.file === r.file && e.source === r.source);
const where = (r: FoundRegex): string => `${r.file}${r.line === undefined ? ' (new RegExp)' : `:${r.line}`} /${r.source}/${r.flags}`;

describe('the regex finder', () => {
  it('tells regex literals from division, comments, strings and templates', () => {
    const { literals, constructed } = regexSites([
      'const a = b / c / d; // not /a regex/',
      "const s = '/not/' + \"/either/\" + `/${x / 2}/${`/${/in-template/g}/`}`;",
      'if (/^x+$/u.test(t)) return /[/\\]]+/g;',
      'const r = new RegExp(A.source, "g"); /* /no/ */ const q = (x) / 2;',
    ].join('\n'));
    expect(literals.map((l) => [l.source, l.flags, l.line])).toEqual([
      ['in-template', 'g', 2],
      ['^x+$', 'u', 3],
      ['[/\\]]+', 'g', 3],
    ]);
    expect(constructed).toEqual([4]);
  });
});

let found: Promise<Inventory> | undefined;
const inventory = (): Promise<Inventory> => (found ??= regexInventory());

describe('every regular expression on caller or party text runs in linear time', () => {
  it('is proven safe by recheck', { timeout: 240_000 }, async () => {
    const { regexes, unrecorded } = await inventory();
    expect(unrecorded, 'a RegExp built while a request runs cannot be checked here: build it once, at module load').toEqual([]);
    expect(regexes.length).toBeGreaterThan(100);
    const checked = regexes.filter((r) => !isExempt(r));
    const results = await verdicts(checked);
    const failures = checked.flatMap((r) => {
      const verdict = results.get(patternKey(r));
      if (verdict === undefined || verdict.status === 'safe') return [];
      return [verdict.status === 'vulnerable'
        ? `${where(r)}: ${verdict.complexity}, e.g. ${verdict.attack}`
        : `${where(r)}: could not be proven safe (${verdict.error}); simplify it`];
    });
    expect(failures).toEqual([]);
  });

  it('lists only exemptions that still exist', { timeout: 60_000 }, async () => {
    const { regexes } = await inventory();
    for (const exempt of NOT_ON_CALLER_OR_PARTY_TEXT) {
      expect(regexes.some((r) => r.file === exempt.file && r.source === exempt.source), `${exempt.file} /${exempt.source}/`).toBe(true);
    }
  });
});
