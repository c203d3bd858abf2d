import { describe, expect, it } from 'vitest';
import {
  CONCISE_MAX_CHARS,
  concise,
  formatByRetrievalType,
  markdown,
  markdownItem,
  replyStyle,
  stripMarkdown,
  verbose,
} from '../../src/reply/reply-styles.ts';
import type { EngineDataItem } from '../../schemas/engine.schema.ts';

/** A data item with any fields, as the engine sends them (the static type names only `name`). */
const item = (fields: { name?: string; [field: string]: unknown }): EngineDataItem => fields;

/** Distinct sentences of about 60 characters each, so a paragraph of them crosses 500 quickly. */
function sentences(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Sentence number ${i + 1} tells the visitor one more useful detail.`);
}

describe('verbose (node + neighborhood_summary)', () => {
  it('keeps paragraphs and normalises CRLF and lone CR line endings', () => {
    const out = verbose('The area is quiet.\r\nParks are close.\r\n\r\nSchools are rated well.\rShops nearby.');
    expect(out).toBe('The area is quiet.\nParks are close.\n\nSchools are rated well.\nShops nearby.');
    expect(out).not.toContain('\r');
  });

  it('cuts nothing, even far beyond the concise limit', () => {
    const paragraphs = [sentences(20).join(' '), sentences(20).join(' '), sentences(20).join(' ')];
    const text = paragraphs.join('\n\n');
    expect(text.length).toBeGreaterThan(3 * CONCISE_MAX_CHARS);
    const out = verbose(text);
    expect(out).toBe(text);
    expect(out.split('\n\n')).toHaveLength(3);
  });

  it('keeps Markdown and list lines as written', () => {
    const text = 'Nearby:\n- **Central Park**, 5 minutes\n- Museum';
    expect(verbose(text)).toBe(text);
  });
});

describe('markdown (node otherwise)', () => {
  it('renders each data item as a list line: name in bold, fields with readable keys', () => {
    const line = markdownItem(item({ name: 'Unit 4B', monthly_rent: 1450, square_feet: 820 }));
    expect(line.startsWith('- **Unit 4B**')).toBe(true);
    expect(line).toContain('monthly rent: 1450');
    expect(line).toContain('square feet: 820');
    expect(line).not.toContain('_');
  });

  it('joins array fields and skips null, missing and empty fields', () => {
    const line = markdownItem(item({ name: 'Plan A', amenities: ['pool', 'gym', 'rooftop'], notes: null, floor: '' }));
    expect(line).toContain('amenities: pool, gym, rooftop');
    expect(line).not.toContain('notes');
    expect(line).not.toContain('null');
    expect(line).not.toContain('floor');
  });

  it('puts the text first, then one list line per data item, in order', () => {
    const out = markdown('Two units are available:', [
      item({ name: 'Unit 1A', bedrooms: 1 }),
      item({ name: 'Unit 2C', bedrooms: 2 }),
    ]);
    const lines = out.split('\n');
    expect(lines[0]).toBe('Two units are available:');
    const items = lines.filter((l) => l.startsWith('- '));
    expect(items).toHaveLength(2);
    expect(items[0]).toContain('**Unit 1A**');
    expect(items[0]).toContain('bedrooms: 1');
    expect(items[1]).toContain('**Unit 2C**');
  });

  it('without data, turns list-like lines (*, •, 1., 2)) into "- " bullets and leaves other lines alone', () => {
    const out = markdown('Amenities:\r\n* Pool\r\n• Gym\r\n1. Parking\r\n2) Laundry\r\n**Pets** are welcome.\r\nWe have 3.5 baths.');
    expect(out.split('\n')).toEqual([
      'Amenities:',
      '- Pool',
      '- Gym',
      '- Parking',
      '- Laundry',
      '**Pets** are welcome.',
      'We have 3.5 baths.',
    ]);
  });

  it('with an empty data list, falls back to the text', () => {
    expect(markdown('Nothing is listed right now.', [])).toBe('Nothing is listed right now.');
  });
});

describe('stripMarkdown', () => {
  it.each([
    ['bold', 'The **deposit** is due __today__.', 'The deposit is due today.'],
    ['italics', 'Cats are *welcome* and dogs _too_.', 'Cats are welcome and dogs too.'],
    ['links', 'Read [our pet policy](https://example.com/pets) first.', 'Read our pet policy first.'],
    ['inline code', 'Use the `portal` to pay.', 'Use the portal to pay.'],
  ])('removes %s and keeps the words', (_label, input, expected) => {
    expect(stripMarkdown(input)).toBe(expected);
  });

  it('removes headings and bullet markers at line starts', () => {
    expect(stripMarkdown('## Parking\n- Garage\n* Street\n1. Visitor')).toBe('Parking\nGarage\nStreet\nVisitor');
  });

  it('does not damage snake_case words or prices', () => {
    const text = 'Ask about pet_fee and parking_fee: $1,450 a month, $75 for a spot.';
    expect(stripMarkdown(text)).toBe(text);
  });
});

describe('concise (rag, fixed, adapter, spf)', () => {
  it('makes one paragraph with white space collapsed', () => {
    expect(concise('  Our office   opens at 9am.\r\n\r\nIt closes\tat 6pm.\n')).toBe('Our office opens at 9am. It closes at 6pm.');
  });

  it.each([
    ['a lone tab', 'Open\tdaily.'],
    ['a lone line break', 'Open\ndaily.'],
    ['a lone carriage return', 'Open\rdaily.'],
    ['a no-break space', 'Open\u00a0daily.'],
    ['two spaces', 'Open  daily.'],
  ])('turns %s between words into one plain space', (_label, text) => {
    expect(concise(text)).toBe('Open daily.');
  });

  it('removes bold, italics, links, headings, code and bullets', () => {
    const out = concise('## Fees\n**Rent** is *due* on the 1st. See [the portal](https://pay.example).\n- Use `autopay`\n• No cash');
    expect(out).toBe('Fees Rent is due on the 1st. See the portal. Use autopay No cash');
    expect(out).not.toMatch(/[*#`[\]•]|https?:/);
  });

  it('keeps snake_case words and prices like $1,450 intact', () => {
    expect(concise('The pet_deposit is **$1,450**, the parking_fee is $75.')).toBe('The pet_deposit is $1,450, the parking_fee is $75.');
  });

  it('returns a text within the limit unchanged apart from white space', () => {
    const text = sentences(8).join(' ');
    expect(text.length).toBeLessThanOrEqual(CONCISE_MAX_CHARS);
    expect(concise(text)).toBe(text);
  });

  it('keeps as many whole sentences as fit in 500 characters', () => {
    const all = sentences(20);
    const out = concise(all.join('\n'));
    expect(out.length).toBeLessThanOrEqual(CONCISE_MAX_CHARS);
    const kept = all.filter((s) => out.includes(s));
    // Whole sentences, from the start, and the next one would not have fitted.
    expect(out).toBe(kept.join(' '));
    expect(kept).toEqual(all.slice(0, kept.length));
    expect(`${out} ${all[kept.length]}`.length).toBeGreaterThan(CONCISE_MAX_CHARS);
    expect(out.endsWith('…')).toBe(false);
  });

  it('cuts a single longer sentence at a word boundary and ends it with …', () => {
    const words = Array.from({ length: 150 }, (_, i) => `word${i}`);
    const sentence = words.join(' ');
    expect(sentence.length).toBeGreaterThan(CONCISE_MAX_CHARS);
    const out = concise(sentence);
    expect(out.length).toBeLessThanOrEqual(CONCISE_MAX_CHARS);
    expect(out.endsWith('…')).toBe(true);
    const kept = out.slice(0, -1);
    expect(sentence.startsWith(kept)).toBe(true);
    expect(sentence[kept.length]).toBe(' ');
    expect(kept.length).toBeGreaterThan(CONCISE_MAX_CHARS / 2);
  });
});

describe('replyStyle and formatByRetrievalType (processing rule 5)', () => {
  it('picks verbose for node + neighborhood_summary, Markdown for other node replies, concise for the rest', () => {
    expect(replyStyle('node', 'neighborhood_summary')).toBe('verbose');
    expect(replyStyle('node', 'units')).toBe('markdown');
    for (const type of ['rag', 'fixed', 'adapter', 'spf'] as const) {
      expect(replyStyle(type, 'neighborhood_summary')).toBe('concise');
      expect(replyStyle(type, 'office_hours')).toBe('concise');
    }
  });

  const text = 'First line with **bold**.\n\n* a point\n* another point';

  it('formats a neighborhood summary verbosely', () => {
    expect(formatByRetrievalType({ response: text, retrieval_type: 'node', sub_intent: 'neighborhood_summary' })).toBe(text);
  });

  it('formats other node replies as Markdown, using data when present', () => {
    expect(formatByRetrievalType({ response: text, retrieval_type: 'node', sub_intent: 'units' })).toBe(
      'First line with **bold**.\n\n- a point\n- another point',
    );
    const withData = formatByRetrievalType({
      response: 'Units:',
      retrieval_type: 'node',
      sub_intent: 'units',
      data: [item({ name: 'Unit 9', rent: 1200 })],
    });
    expect(withData).toContain('- **Unit 9**');
    expect(withData).toContain('rent: 1200');
  });

  it.each(['rag', 'fixed', 'adapter', 'spf'] as const)('formats %s concisely', (type) => {
    expect(formatByRetrievalType({ response: text, retrieval_type: type, sub_intent: 'neighborhood_summary' })).toBe(
      'First line with bold. a point another point',
    );
  });
});

describe('concise: sentence edges', () => {
  it('does not split a sentence after an abbreviation such as a.m. or Dr.', () => {
    const first = `Tours run from 9 a.m. to 5 p.m. every weekday with Dr. Lee. ${'x'.repeat(40)}.`;
    const text = `${first} ${'Another sentence follows here. '.repeat(20)}`;
    const out = concise(text);
    expect(out.startsWith(first)).toBe(true);
  });

  it('never cuts an emoji in half', () => {
    const out = concise('😀'.repeat(600));
    expect(out.endsWith('…')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(500);
    expect(out).toBe(out.toWellFormed());
  });
});
