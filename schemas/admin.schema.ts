import { Type, type Static } from '@sinclair/typebox';

/** A handoff id: the UUID also sent as its `Idempotency-Key`. */
const HandoffId = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });

export const HandoffStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('delivering'), Type.Literal('delivered'), Type.Literal('dead')]);

/** `GET /admin/handoffs?status=dead|pending&limit=N` (status defaults to dead, limit to 100, at most 1000). */
export const HandoffListQuerySchema = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('dead'), Type.Literal('pending')], { default: 'dead' })),
  // Query values are strings (no type coercion anywhere in this service).
  limit: Type.Optional(Type.String({ pattern: '^(?:[1-9][0-9]{0,2}|1000)$', default: '100' })),
});
export type HandoffListQuery = Static<typeof HandoffListQuerySchema>;

/** One handoff as the admin routes show it: ids, times, counts, a bounded reason; never the message or contact. */
export const AdminHandoffSchema = Type.Object(
  {
    handoff_id: Type.String(),
    created_at: Type.String({ description: 'ISO 8601, when the handoff was written' }),
    attempts: Type.Integer({ minimum: 0, description: 'delivery attempts since it was written or re-queued' }),
    last_error: Type.Union([Type.String(), Type.Null()], { description: 'status_503, timeout, unreachable, expired: ...' }),
    status: HandoffStatusSchema,
  },
  { additionalProperties: false },
);
export type AdminHandoff = Static<typeof AdminHandoffSchema>;

export const HandoffListSchema = Type.Object(
  { status: Type.Union([Type.Literal('dead'), Type.Literal('pending')]), handoffs: Type.Array(AdminHandoffSchema) },
  { additionalProperties: false },
);
export type HandoffList = Static<typeof HandoffListSchema>;

/** `POST /admin/handoffs/{handoff_id}/retry`. */
export const HandoffRetryParamsSchema = Type.Object({ handoff_id: HandoffId });
export type HandoffRetryParams = Static<typeof HandoffRetryParamsSchema>;

/** 202: the dead letter is queued again (delivered in the background). */
export const HandoffRetriedSchema = Type.Object(
  { handoff_id: Type.String(), status: Type.Literal('pending') },
  { additionalProperties: false },
);
export type HandoffRetried = Static<typeof HandoffRetriedSchema>;
