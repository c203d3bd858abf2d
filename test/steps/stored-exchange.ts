import type { ChatContext } from '../../src/pipeline/context.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { TRACE_ID, answeredContext, deliveredReply, validRequest } from './step-context.ts';

/** The members both stored messages share (docs/contracts.md#graphql-store) for the context below. */
export const SHARED_INPUT = {
  conversationId: '1111111111111111111',
  propertyId: '1234567890123456789',
  orgId: '9876543210987654321',
  sessionId: 'd41d8cd98f00b204e9800998ecf8427e',
  traceId: TRACE_ID,
  intent: 'pricing',
  subIntent: 'rent',
  retrievalType: 'rag',
};

/** A Spanish exchange ready to be stored: message sent with spaces around it, reply translated. */
export function exchangeContext(entryId?: string): ChatContext {
  const request = validRequest({ message: '  ¿Cuánto cuesta?  ', spanish_toggle: true, ...(entryId !== undefined && { entry_id: entryId }) });
  return answeredContext(request, {
    requestId: 'idem-42',
    engineReply: engineReply({ intent: 'pricing', sub_intent: 'rent', retrieval_type: 'rag', response: 'Rent starts at $1,450.' }),
    reply: deliveredReply({ response: 'El alquiler empieza en $1,450.', language: 'es' }),
  });
}
