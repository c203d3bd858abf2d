import { Type, type Static } from '@sinclair/typebox';

/** 400 and 500: `{detail: {message, trace_id}}`. */
export const DetailWithTraceSchema = Type.Object(
  {
    detail: Type.Object(
      { message: Type.String(), trace_id: Type.String() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type DetailWithTrace = Static<typeof DetailWithTraceSchema>;

/** 404, 413, 415, 503: `{detail: string}`. */
export const DetailTextSchema = Type.Object({ detail: Type.String() }, { additionalProperties: false });
export type DetailText = Static<typeof DetailTextSchema>;

/*
 * The same two shapes, one per status of POST /chat_adapter, each with the description and the
 * example the OpenAPI document shows (src/http/docs.ts). They serialize exactly like the two above.
 */
const withTrace = (description: string, message: string) =>
  Type.Object(DetailWithTraceSchema.properties, {
    additionalProperties: false,
    description,
    examples: [{ detail: { message, trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' } }],
  });
const text = (description: string, detail: string) =>
  Type.Object(DetailTextSchema.properties, { additionalProperties: false, description, examples: [{ detail }] });

export const BadRequestSchema = withTrace(
  'Validation failed, the JSON is malformed or empty, a forbidden member (`__proto__`, `constructor.prototype`) was sent, or the `Idempotency-Key` header is malformed; the message names the field',
  "Invalid request: 'propertyId' must be 19 digits or standard Base64",
);
export const UnauthorizedSchema = text('No or an unknown bearer key while `CALLER_API_KEYS` is set (with `WWW-Authenticate: Bearer`); nothing is called or stored', 'Unauthorized');
export const ForbiddenSchema = text('The bearer key is not allowed for this `orgId`; nothing is called or stored', 'Forbidden');
export const ConflictSchema = text('A request with the same `Idempotency-Key` is still being processed (with `Retry-After: 1`)', 'A request with this Idempotency-Key is still being processed');
export const PayloadTooLargeSchema = text('The body is over 256 KiB', 'Request body must be at most 262144 bytes');
export const UnsupportedMediaTypeSchema = text('The body is not `application/json`', 'Content-Type must be application/json');
export const UnprocessableSchema = text('The same `Idempotency-Key` was used with a different request', 'This Idempotency-Key was used with a different request');
export const TooManyRequestsSchema = text('Over the per-session or per-organisation rate limit (with `Retry-After` and `RateLimit-*` headers); nothing is called or stored', 'Too Many Requests');
export const InternalErrorSchema = withTrace('Unexpected error; no internals are shown', 'Internal server error');
export const ServiceUnavailableSchema = text(
  'The engine or the GraphQL API cannot be reached, times out or answers out of contract; the service is shutting down; or it is overloaded',
  'engine unavailable',
);
