/** The playground's two pure scripts, loaded as the browser loads them (plain JavaScript modules). */
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMarkdown } from '../../src/http/playground/markdown.js';
import { MIN_DRAWN_PCT, stepKind, waterfallBars, waterfallRows } from '../../src/http/playground/waterfall.js';
import { PROGRESS_TEXTS, progressText } from '../../src/http/playground/progress.js';
import { LATENCY_STEP_NAMES } from '../../schemas/chat-steps.ts';

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

  it('colours a step named like an Object member as any unknown step', () => {
    for (const step of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(stepKind(step)).toBe('service');
    expect(stepKind('askEngine')).toBe('engine');
  });

  it('never overflows when the steps add up to more than the rounded total', () => {
    const bars = waterfallBars({ chat_adapter_latency: 9, steps: { askEngine: 6, storeAnswer: 4 } });
    const last = bars.at(-1)!;
    expect(last.offsetPct + last.widthPct).toBeCloseTo(100);
  });
});

describe('waterfallRows', () => {
  it('draws the steps that would show as more than a hairline, and lists the short ones apart, each in order', () => {
    const latency = {
      chat_adapter_latency: 100,
      steps: { receiveRequest: 0.02, validateRequest: 0.01, askEngine: 40, formatReply: 0.3, storeQuestion: 20, rememberTurn: 1.2, storeAnswer: 30 },
    };
    const { drawn, short, shortMs } = waterfallRows(latency);
    expect(drawn.map((b) => b.step)).toEqual(['askEngine', 'storeQuestion', 'storeAnswer']);
    expect(short.map((b) => b.step)).toEqual(['receiveRequest', 'validateRequest', 'formatReply', 'rememberTurn']);
    expect(shortMs).toBeCloseTo(1.53);
    expect(drawn.every((b) => b.widthPct >= MIN_DRAWN_PCT)).toBe(true);
    // Drawn bars keep their place in time: the short steps before them still count.
    expect(drawn[0]!.offsetPct).toBeCloseTo(0.03);
  });

  it('draws every step of a chat whose steps are all of a size', () => {
    const { drawn, short } = waterfallRows({ chat_adapter_latency: 4, steps: { a: 1, b: 1, c: 1, d: 1 } });
    expect(drawn).toHaveLength(4);
    expect(short).toEqual([]);
  });
});

describe('the typing line of a reply on its way', () => {
  it('says what happens in a visitor\'s words after every step the service reports, never the step\'s name', () => {
    for (const step of LATENCY_STEP_NAMES) {
      const text = progressText(step);
      expect(PROGRESS_TEXTS, step).toContain(text);
      expect(text).not.toMatch(/[a-z][A-Z]/); // no camelCase name
      expect(text).not.toContain(step);
    }
    expect(new Set(LATENCY_STEP_NAMES.map(progressText)).size).toBeGreaterThan(2);
  });

  it('keeps an unknown step, a name like __proto__ included, at "Thinking…"', () => {
    for (const step of ['__proto__', 'constructor', 'toString', 'someNewStep', '']) expect(progressText(step)).toBe('Thinking…');
  });
});
