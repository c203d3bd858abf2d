import { Type, type Static } from '@sinclair/typebox';

/**
 * One member per readiness check (e.g. `redis`): "ok", "unavailable", or "degraded" (shared state
 * that answered before and is down now: chats go on in-process, docs/api.md#when-a-party-fails).
 */
const ChecksSchema = Type.Record(Type.String(), Type.Union([Type.Literal('ok'), Type.Literal('unavailable'), Type.Literal('degraded')]), {
  description: 'Each named check and its outcome',
});

/** `GET /ready` 200: everything the service needs downstream of itself answers. */
export const ReadySchema = Type.Object(
  { ready: Type.Literal(true), checks: ChecksSchema },
  {
    additionalProperties: false,
    description: 'Every check passes, or only degrades (Redis down after it had answered: chats go on per instance): send traffic',
    examples: [{ ready: true, checks: { 'handoff outbox': 'ok', redis: 'ok' } }, { ready: true, checks: { 'handoff outbox': 'ok', redis: 'degraded' } }],
  },
);
export type Ready = Static<typeof ReadySchema>;

/** `GET /ready` 503: what is not ready, also said in `detail` (the error shape of docs/api.md#errors). */
export const NotReadySchema = Type.Object(
  { ready: Type.Literal(false), checks: ChecksSchema, detail: Type.String() },
  { additionalProperties: false, description: 'A check fails (named in `checks` and `detail`): send no traffic for now', examples: [{ ready: false, checks: { redis: 'unavailable' }, detail: 'not ready: redis' }] },
);
export type NotReady = Static<typeof NotReadySchema>;
