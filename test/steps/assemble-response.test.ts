import { describe, expect, it } from 'vitest';
import type { EngineReply } from '../../schemas/engine.schema.ts';
import { assembleResponse } from '../../steps/assemble-response.ts';
import { answeredContext, deliveredReply, TRACE_ID, validRequest } from './step-context.ts';

/** docs/api.md#chat-response, without `latency` (the route adds it from the step timings). */
const MEMBERS = [
  'response',
  'intent',
  'sub_intent',
  'message_id',
  'retrieval_type',
  'orchestrator_level1_details',
  'orchestrator_level2_details',
  'keyword_cache',
  'not_available',
  'context',
  'follow_up',
  'language',
  'agent_handoff',
  'memory',
  'trace_id',
];

const MINIMAL: EngineReply = { response: 'Hello there.', intent: 'greeting', sub_intent: 'hello', retrieval_type: 'fixed' };

describe('assembleResponse (processing rule 10)', () => {
  it('has every member of docs/api.md#chat-response except latency, with the delivered reply and the trace id', () => {
    const ctx = answeredContext(validRequest(), {
      engineReply: {
        ...MINIMAL,
        retrieval_type: 'node',
        orchestrator_level1_details: { route: 'units' },
        orchestrator_level2_details: { tool: 'search' },
        keyword_cache: { bedrooms: 2 },
        context: { unit: '4B' },
        memory: { last: 'units' },
      },
      reply: deliveredReply({ response: 'Hola.', follow_up: '¿Algo más?', language: 'es', not_available: ['garage'] }),
      answerId: '9001',
      agentHandoff: { requested: true, reason: 'hello' },
    });
    const response = assembleResponse(ctx).response;
    expect(Object.keys(response ?? {}).sort()).toEqual([...MEMBERS].sort());
    expect(response).toEqual({
      response: 'Hola.',
      intent: 'greeting',
      sub_intent: 'hello',
      message_id: '9001',
      retrieval_type: 'node',
      orchestrator_level1_details: { route: 'units' },
      orchestrator_level2_details: { tool: 'search' },
      keyword_cache: { bedrooms: 2 },
      not_available: ['garage'],
      context: { unit: '4B' },
      follow_up: '¿Algo más?',
      language: 'es',
      agent_handoff: { requested: true, reason: 'hello' },
      memory: { last: 'units' },
      trace_id: TRACE_ID,
    });
  });

  it('defaults what the engine left out: objects to {}, context, memory and agent_handoff to null', () => {
    const ctx = answeredContext(validRequest(), { engineReply: MINIMAL, reply: deliveredReply(), answerId: '9002' });
    const response = assembleResponse(ctx).response;
    expect(Object.keys(response ?? {}).sort()).toEqual([...MEMBERS].sort());
    expect(response).toMatchObject({
      orchestrator_level1_details: {},
      orchestrator_level2_details: {},
      keyword_cache: {},
      not_available: [],
      context: null,
      memory: null,
      agent_handoff: null,
      message_id: '9002',
      language: 'en',
    });
  });
});
