/**
 * A request and its answer as the local stack gives them (README "Try it"), typed so that they
 * cannot drift from the schemas; the OpenAPI document shows them (src/http/openapi-document.ts).
 */
import type { ChatRequest } from './chat-request.schema.ts';
import type { ChatResponse } from './chat-response.schema.ts';

export const CHAT_REQUEST_EXAMPLE: ChatRequest = {
  propertyId: '1234567890123456789',
  orgId: '9876543210987654321',
  conversation_id: '1000000000000000001',
  session_id: 'fake_service_session_id',
  graphql_api_key: 'local-demo',
  tourScheduleEnabled: true,
  history: [],
  message: 'Do you have any 2 bedroom apartments available?',
  spanish_support_enabled: false,
  spanish_toggle: false,
  is_first_entry: false,
};

export const CHAT_RESPONSE_EXAMPLE: ChatResponse = {
  response: 'We have 1 unit available at $1,875 a month. Unit B-305: 2 bedrooms, 2 baths, 1,040 sq ft, available now.',
  intent: 'leasing',
  sub_intent: 'availability',
  message_id: '2',
  retrieval_type: 'adapter',
  orchestrator_level1_details: {},
  orchestrator_level2_details: {},
  keyword_cache: { bedrooms: 2 },
  not_available: [],
  context: null,
  follow_up: 'Would you like to schedule a tour?',
  latency: {
    service_engine_latency: 4.127,
    chat_adapter_latency: 21.904,
    extract_and_update_contact_latency: 0.012,
    create_message_latency: 7.385,
    steps: {
      receiveRequest: 0.004,
      validateRequest: 0.011,
      loadSession: 0.021,
      chooseLanguage: 0.052,
      trimHistory: 0.003,
      reuseCachedReply: 0.018,
      askEngine: 4.127,
      answerFromPropertyApi: 6.912,
      formatReply: 0.041,
      translateReply: 0.002,
      extractContact: 0.012,
      decideHandoff: 0.003,
      updateConversation: 0.001,
      storeQuestion: 3.702,
      startHandoff: 0.002,
      storeAnswer: 3.683,
      rememberTurn: 0.015,
      assembleResponse: 0.006,
    },
  },
  language: 'en',
  agent_handoff: null,
  memory: null,
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
};
