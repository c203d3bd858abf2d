import { Type, type Static } from '@sinclair/typebox';

/** Exactly 19 ASCII digits, or standard Base64 (A-Z a-z 0-9 + /, length a multiple of 4, `=` only at the end). */
export const ID_PATTERN =
  '^(?:[0-9]{19}|(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==))$';

/** 32 hex digits (MD5), a UUID version 4, or the literal `fake_service_session_id`. */
export const SESSION_ID_PATTERN =
  '^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|fake_service_session_id)$';

export const GRAPHQL_API_KEY_PATTERN = '^[A-Za-z0-9_-]+$';

export const MESSAGE_MAX_CHARS = 4000;
export const HISTORY_MAX_ITEMS = 50;
export const BODY_LIMIT_BYTES = 256 * 1024;

const Id = (description: string) =>
  Type.String({ pattern: ID_PATTERN, maxLength: 4096, description });

export const HistoryItemSchema = Type.Object(
  {
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
    content: Type.String({ maxLength: MESSAGE_MAX_CHARS }),
  },
  { additionalProperties: false },
);
export type HistoryItem = Static<typeof HistoryItemSchema>;

/** Free-form scheduling objects: forwarded to the engine as sent. */
const OpenObject = Type.Object({}, { additionalProperties: true });

export const ChatRequestSchema = Type.Object(
  {
    propertyId: Id('Property id: 19 digits or Base64'),
    message: Type.String({ description: 'The visitor message; 1..4000 characters after trimming' }),
    orgId: Id('Organisation id: 19 digits or Base64'),
    session_id: Type.String({ pattern: SESSION_ID_PATTERN, description: 'Session id: 32 hex digits (MD5), a UUID v4, or fake_service_session_id' }),
    conversation_id: Id('Conversation id: 19 digits or Base64'),
    graphql_api_key: Type.String({ pattern: GRAPHQL_API_KEY_PATTERN, maxLength: 4096, description: 'Base64URL; sent only to the GraphQL API' }),
    tourScheduleEnabled: Type.Boolean({ description: 'Whether tour slots may be looked up and offered' }),
    history: Type.Array(HistoryItemSchema, { maxItems: HISTORY_MAX_ITEMS, description: 'Earlier messages, oldest first; when empty, the session cache supplies them' }),
    entry_id: Type.Optional(Type.String({ maxLength: 512 })),
    booking_id: Type.Optional(Type.String({ maxLength: 512 })),
    reschedule_information: Type.Optional(OpenObject),
    schedule_information: Type.Optional(OpenObject),
    spanish_support_enabled: Type.Boolean({ default: false, description: 'Reply in Spanish when the message is written in Spanish' }),
    spanish_toggle: Type.Boolean({ default: false, description: 'Always reply in Spanish' }),
    is_first_entry: Type.Boolean({ default: false }),
    org_name: Type.Optional(Type.String({ maxLength: 512 })),
  },
  // Unknown members are stripped by the validator (removeAdditional) and so never forwarded.
  { additionalProperties: false, $id: 'ChatRequest' },
);
export type ChatRequest = Static<typeof ChatRequestSchema>;

/** Human descriptions of each field's rule, used in 400 messages. */
export const FIELD_RULES: Readonly<Record<string, string>> = {
  propertyId: 'must be 19 digits or standard Base64',
  orgId: 'must be 19 digits or standard Base64',
  conversation_id: 'must be 19 digits or standard Base64',
  session_id: 'must be an MD5 hash (32 hex digits), a UUID v4, or fake_service_session_id',
  graphql_api_key: 'must be Base64URL (A-Z a-z 0-9 _ -)',
  message: `must be a string of 1..${MESSAGE_MAX_CHARS} characters after trimming`,
  history: `must be an array of at most ${HISTORY_MAX_ITEMS} {role, content} items`,
  role: 'must be "user" or "assistant"',
  content: `must be a string of at most ${MESSAGE_MAX_CHARS} characters`,
};
