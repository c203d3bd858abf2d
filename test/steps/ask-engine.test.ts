import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { DownstreamError } from '../../src/errors.ts';
import { askEngine } from '../../steps/ask-engine.ts';
import { CALLER_API_KEY, engineReply } from '../helpers/fixtures.ts';
import { fakeDeps } from './fake-deps.ts';
import { answeredContext, validRequest } from './step-context.ts';

/** The context askEngine sees: message trimmed, language chosen, history trimmed, no reply yet. */
function beforeEngine(request: ChatRequest, language: 'en' | 'es' = 'en') {
  const { engineReply: _reply, replySource: _source, reply: _formatted, ...ctx } = answeredContext(request, { language });
  return ctx;
}

const REQUIRED = [
  'propertyId',
  'message',
  'orgId',
  'session_id',
  'conversation_id',
  'tourScheduleEnabled',
  'history',
  'spanish_support_enabled',
  'spanish_toggle',
  'is_first_entry',
  'language',
];

describe('askEngine (processing rule 4, docs/contracts.md#engine)', () => {
  it('sends the request without graphql_api_key, with the trimmed message, trimmed history and language', async () => {
    const { deps, calls } = fakeDeps();
    const history = Array.from({ length: 6 }, (_, i) => ({ role: 'user' as const, content: `h${i}` }));
    const ctx = beforeEngine(validRequest({ message: '  Any 2 bed units?  ', history }), 'es');
    const patch = await askEngine(ctx, deps);

    expect(calls.engine).toHaveLength(1);
    const sent = calls.engine[0]!;
    expect(Object.keys(sent).sort()).toEqual([...REQUIRED].sort());
    expect(sent).not.toHaveProperty('graphql_api_key');
    expect(JSON.stringify(sent)).not.toContain(CALLER_API_KEY);
    expect(sent.message).toBe('Any 2 bed units?');
    expect(sent.history.map((h) => h.content)).toEqual(['h2', 'h3', 'h4', 'h5']);
    expect(sent.language).toBe('es');
    expect(sent.propertyId).toBe(ctx.request.propertyId);
    expect(sent.tourScheduleEnabled).toBe(true);
    expect(patch).toEqual({ engineReply: engineReply(), replySource: 'engine' });
  });

  it('never forwards a member it does not know, even if one slipped into the request', async () => {
    const { deps, calls } = fakeDeps();
    const request = { ...validRequest(), internal_note: 'do not forward', __debug: true } as ChatRequest;
    await askEngine(beforeEngine(request), deps);
    expect(Object.keys(calls.engine[0]!).sort()).toEqual([...REQUIRED].sort());
  });

  it('adds each optional member only when the caller sent it, as sent', async () => {
    const { deps, calls } = fakeDeps();
    const optional = {
      entry_id: 'entry-1',
      booking_id: 'booking-2',
      reschedule_information: { from: '2026-02-01T10:00:00Z' },
      schedule_information: { slot: '2026-02-03T15:00:00Z', people: 2 },
      org_name: 'Acme Living',
    };
    await askEngine(beforeEngine(validRequest({ ...optional, spanish_support_enabled: true, is_first_entry: true })), deps);
    const sent = calls.engine[0]!;
    expect(sent).toMatchObject({ ...optional, spanish_support_enabled: true, is_first_entry: true, spanish_toggle: false });
    expect(Object.keys(sent)).toHaveLength(REQUIRED.length + Object.keys(optional).length);
  });

  it('is skipped when an earlier step already has the reply', async () => {
    const { deps, calls } = fakeDeps();
    const ctx = answeredContext(validRequest(), { replySource: 'cache' });
    expect(await askEngine(ctx, deps)).toEqual({});
    expect(calls.engine).toHaveLength(0);
  });

  it('lets a DownstreamError from the engine through as it is', async () => {
    const down = new DownstreamError('engine', 'timed out');
    const { deps } = fakeDeps({ engine: down });
    await expect(askEngine(beforeEngine(validRequest()), deps)).rejects.toBe(down);
  });
});
