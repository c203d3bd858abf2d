/*
 * Span attribute names, as the OpenTelemetry semantic conventions (1.45) name them. Incubating
 * ones (server.service.name, url.template, gen_ai.*, graphql.*) are copied here as the conventions package
 * advises, because they may change between minor versions. The stable ones are copied too (stable
 * names never change): importing them would load the package's ES module build next to the
 * CommonJS build the OpenTelemetry SDK loads, a second copy of its attribute tables (about 1 MiB
 * resident) for a few strings. test/telemetry/attribute-names.test.ts checks them against the package.
 */
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_SERVER_ADDRESS = 'server.address';
export const ATTR_SERVER_PORT = 'server.port';
export const ATTR_SERVICE_NAME = 'service.name';
export const ATTR_SERVICE_VERSION = 'service.version';
export const ATTR_URL_FULL = 'url.full';
export const ATTR_URL_PATH = 'url.path';
export const ATTR_URL_SCHEME = 'url.scheme';
export const ATTR_CLIENT_ADDRESS = 'client.address';
export const ATTR_USER_AGENT_ORIGINAL = 'user_agent.original';
export const ATTR_NETWORK_PROTOCOL_VERSION = 'network.protocol.version';
export const ATTR_SERVICE_INSTANCE_ID = 'service.instance.id';
export const ATTR_NETWORK_PEER_ADDRESS = 'network.peer.address';
export const ATTR_NETWORK_PEER_PORT = 'network.peer.port';
/** Database client spans (the chat's Redis calls, fast/redis-span.ts). */
export const ATTR_DB_SYSTEM_NAME = 'db.system.name';
export const ATTR_DB_OPERATION_NAME = 'db.operation.name';
export const ATTR_DB_OPERATION_BATCH_SIZE = 'db.operation.batch.size';
export const ATTR_DB_STORED_PROCEDURE_NAME = 'db.stored_procedure.name';
export const ATTR_DB_RESPONSE_STATUS_CODE = 'db.response.status_code';

/** The party a CLIENT span calls (engine, graphql, ...): `peer.service` is deprecated in 1.45 for it. */
export const ATTR_SERVER_SERVICE_NAME = 'server.service.name';
export const ATTR_URL_TEMPLATE = 'url.template';
export const ATTR_DEPLOYMENT_ENVIRONMENT_NAME = 'deployment.environment.name';
export const ATTR_GRAPHQL_OPERATION_TYPE = 'graphql.operation.type';
export const ATTR_GRAPHQL_OPERATION_NAME = 'graphql.operation.name';
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
export const ATTR_GEN_AI_OUTPUT_TYPE = 'gen_ai.output.type';
/** A streamed engine call: asked with an event stream accepted, and when its first text arrived (seconds). */
export const ATTR_GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
export const ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
/** Only with TRACE_MESSAGE_TEXT=true: the visitor's message, in the GenAI input-messages JSON shape. */
export const ATTR_GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';

/** This service's own attributes. */
export const ATTR_INTENT = 'chat_adapter.intent';
export const ATTR_SUB_INTENT = 'chat_adapter.sub_intent';
export const ATTR_RETRIEVAL_TYPE = 'chat_adapter.retrieval_type';
export const ATTR_REPLY_SOURCE = 'chat_adapter.reply_source';
/** The CALLER_API_KEYS entry's name a chat authenticated as (never the key). */
export const ATTR_CALLER = 'chat_adapter.caller';
/** The handoff a delivery attempt carries (a UUID: no personal data). */
export const ATTR_HANDOFF_ID = 'chat_adapter.handoff_id';
/** Tries a GraphQL mutation took (its span covers all of them, retries and backoff included). */
export const ATTR_ATTEMPTS = 'chat_adapter.attempts';
