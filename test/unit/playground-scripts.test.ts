/** The playground's two pure scripts, loaded as the browser loads them (plain JavaScript modules). */
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMarkdown } from '../../src/http/playground/markdown.js';
import { waterfallBars } from '../../src/http/playground/waterfall.js';

describe('renderMarkdown', () => {
  it('renders paragraphs, line breaks and bold', () => {
    expect(renderMarkdown('We are **open** today.\nCall us.\n\nSee you soon.')).toBe(
      '<p>We are <strong>open</strong> today.<br>Call us.</p><p>See you soon.</p>',
    );
  });

  it('renders bullet and numbered lists, each item with its inline bold', () => {
    expect(renderMarkdown('Units:\n- **B-305**: 2 bed\n* C-101: studio\n1. first\n2) second')).toBe(
      '<p>Units:</p><ul><li><strong>B-305</strong>: 2 bed</li><li>C-101: studio</li></ul><ol><li>first</li><li>second</li></ol>',
    );
  });

  it('escapes every piece of HTML, so a reply can never inject an element or an attribute', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n- **<img src=x onerror="alert(1)">**\n\'quoted\' & more');
    expect(html).not.toMatch(/<(script|img)/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<strong>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</strong>');
    expect(html).toContain('&#39;quoted&#39; &amp; more');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('leaves lone asterisks and an empty reply alone', () => {
    expect(renderMarkdown('2 * 3 = 6')).toBe('<p>2 * 3 = 6</p>');
    expect(renderMarkdown('')).toBe('');
  });
});

describe('waterfallBars', () => {
  it('draws one bar per step, in order, each starting where the previous ones ended', () => {
    const bars = waterfallBars({ chat_adapter_latency: 20, steps: { validateRequest: 1, askEngine: 10, storeQuestion: 4, storeAnswer: 3 } });
    expect(bars.map((b) => b.step)).toEqual(['validateRequest', 'askEngine', 'storeQuestion', 'storeAnswer']);
    const rounded = (values: number[]) => values.map((v) => Number(v.toFixed(6)));
    expect(rounded(bars.map((b) => b.offsetPct))).toEqual([0, 5, 55, 75]);
    expect(rounded(bars.map((b) => b.widthPct))).toEqual([5, 50, 20, 15]);
    expect(bars.map((b) => b.kind)).toEqual(['service', 'engine', 'graphql', 'graphql']);
  });

  it('never overflows when the steps add up to more than the rounded total', () => {
    const bars = waterfallBars({ chat_adapter_latency: 9, steps: { askEngine: 6, storeAnswer: 4 } });
    const last = bars.at(-1)!;
    expect(last.offsetPct + last.widthPct).toBeCloseTo(100);
  });
});
