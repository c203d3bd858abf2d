import { describe, expect, it } from 'vitest';
import type { EngineDataItem, EngineReply } from '../../schemas/engine.schema.ts';
import { formatReply } from '../../steps/format-reply.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { answeredContext, validRequest } from './step-context.ts';

function formatted(reply: Partial<EngineReply>) {
  const { reply: _none, ...ctx } = answeredContext(validRequest(), { engineReply: engineReply(reply) });
  const out = formatReply(ctx).reply;
  if (!out) throw new Error('formatReply returned no reply');
  return out;
}

/** A data item with a field the static type does not name (the schema allows any). */
const UNIT_3A_FIELDS = { name: 'Unit 3A', monthly_rent: 1450 };
const UNIT_3A: EngineDataItem = UNIT_3A_FIELDS;

const TEXT = 'Good news!\r\n\r\n* **Pool** is open\r\n* Gym is open';

describe('formatReply (processing rule 5)', () => {
  it('keeps a neighborhood summary whole (verbose)', () => {
    const out = formatted({ retrieval_type: 'node', sub_intent: 'neighborhood_summary', response: TEXT });
    expect(out.response).toBe('Good news!\n\n* **Pool** is open\n* Gym is open');
  });

  it('formats other node replies as Markdown, using the data list', () => {
    expect(formatted({ retrieval_type: 'node', sub_intent: 'amenities', response: TEXT }).response).toBe(
      'Good news!\n\n- **Pool** is open\n- Gym is open',
    );
    const withData = formatted({
      retrieval_type: 'node',
      sub_intent: 'units',
      response: 'Available now:',
      data: [UNIT_3A],
    });
    expect(withData.response).toMatch(/^Available now:\n\n- \*\*Unit 3A\*\*.*monthly rent: 1450/);
  });

  it.each(['rag', 'fixed', 'adapter', 'spf'] as const)('makes a %s reply concise', (type) => {
    expect(formatted({ retrieval_type: type, response: TEXT }).response).toBe('Good news! Pool is open Gym is open');
  });

  it('makes follow_up concise too, and an absent or null follow_up empty', () => {
    expect(formatted({ retrieval_type: 'node', follow_up: '**Want** a\n\ntour?' }).follow_up).toBe('Want a tour?');
    expect(formatted({ follow_up: null }).follow_up).toBe('');
    const { follow_up: _f, ...noFollowUp } = engineReply();
    const { reply: _r, ...ctx } = answeredContext(validRequest(), { engineReply: noFollowUp });
    expect(formatReply(ctx).reply?.follow_up).toBe('');
  });

  it('records the language the engine wrote in: es only when it says es', () => {
    expect(formatted({ language: 'es' }).language).toBe('es');
    expect(formatted({ language: 'en' }).language).toBe('en');
    const { language: _l, ...noLanguage } = engineReply();
    expect(formatted(noLanguage).language).toBe('en');
  });

  it('passes not_available through, defaulting to an empty list', () => {
    expect(formatted({ not_available: ['garage'] }).not_available).toEqual(['garage']);
    const { not_available: _n, ...none } = engineReply();
    const { reply: _r, ...ctx } = answeredContext(validRequest(), { engineReply: none });
    expect(formatReply(ctx).reply?.not_available).toEqual([]);
  });
});
