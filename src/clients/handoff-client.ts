import { ROOT_CONTEXT, SpanStatusCode, context, isSpanContextValid, propagation, trace, type Link } from '@opentelemetry/api';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { ATTR_HANDOFF_ID, ATTR_HTTP_RESPONSE_STATUS_CODE } from '../telemetry/attributes.ts';
import { attemptTimer, clientSpan, setErrorType } from '../telemetry/fast/client-span.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';
import { failureReason, is2xx } from './call-failure.ts';
import { startCallTimer } from './call-timer.ts';
import type { HandoffSigner } from './handoff-signature.ts';
import type { HttpParty } from './http-json.ts';
import { partyAddress } from './party-pool.ts';

/**
 * What one delivery attempt came to (docs/operations.md#handoffs-and-dead-letters). `reason` is bounded and holds no input: a
 * status (`status_503`), `timeout`, `unreachable` or `bad_reply`.
 */
export type DeliveryOutcome =
  | { readonly result: 'delivered' }
  | { readonly result: 'retryable' | 'permanent'; readonly reason: string };

/** The W3C trace headers of the active context, kept with a handoff so that its deliveries link to the chat's span. */
export function captureTraceHeaders(): Record<string, string> {
  return withTraceHeaders({});
}

/** A connection error, timeout, 408, 429 or 5xx may pass; any other answer will not change by itself. */
const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** How deliveries are signed (docs/handoff-receivers.md); no signer = unsigned. `now` is the clock of the timestamp. */
export interface DeliverySigning {
  readonly signer?: HandoffSigner | undefined;
  readonly now?: () => number;
}

/**
 * One attempt at `POST {HANDOFF_URL}/handoff` with `Idempotency-Key: <handoff_id>` (the same on
 * every attempt, so the receiver records a re-delivery once) and, with a signer, the Standard
 * Webhooks headers made for this attempt (`webhook-id` = handoff_id, a fresh timestamp, same body).
 * Never throws: the outbox decides what to do with the outcome. Each attempt is a trace of its own
 * (an attempt may run hours after the chat, or in another process), its CLIENT span linked to the
 * chat's span (from `traceHeaders`) and carrying `chat_adapter.handoff_id`; a refusal that
 * dead-letters the handoff is a `handoff dead-lettered` event on it (ids and reason only).
 */
export async function deliverHandoff(
  target: HttpParty,
  handoff: Handoff,
  traceHeaders: Readonly<Record<string, string>> = {},
  signing: DeliverySigning = {},
): Promise<DeliveryOutcome> {
  const chat = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, traceHeaders));
  const links: Link[] = chat !== undefined && isSpanContextValid(chat) ? [{ context: chat }] : [];
  const call = { party: target.party, method: 'POST', baseUrl: target.baseUrl, path: '/handoff', attributes: { [ATTR_HANDOFF_ID]: handoff.handoff_id }, links };
  return context.with(ROOT_CONTEXT, () =>
    clientSpan(target.telemetry, call, async (span): Promise<DeliveryOutcome> => {
      const done = attemptTimer(target.telemetry, target.party);
      const failed = (reason: string): string => {
        setErrorType(span, reason);
        span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
        done(reason);
        return reason;
      };
      let status: number | undefined;
      const address = partyAddress(target.baseUrl);
      const timer = startCallTimer({ ms: target.timeoutMs, byDeadline: false });
      try {
        const body = JSON.stringify(handoff);
        // webhook-id (what receivers deduplicate on) is sent signed or not; the signer adds the rest.
        const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': handoff.handoff_id, 'webhook-id': handoff.handoff_id };
        if (signing.signer !== undefined) Object.assign(headers, signing.signer.headers(handoff.handoff_id, body, (signing.now ?? Date.now)()));
        const res = await target.dispatcher.request({
          origin: address.origin,
          path: `${address.basePath}/handoff`,
          method: 'POST',
          headers: withTraceHeaders(headers),
          body,
          signal: timer.signal,
        });
        status = res.statusCode;
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        // The status is the answer: a body cut off after it changes nothing.
        await res.body.dump().catch(() => undefined);
        if (is2xx(status)) {
          done(undefined);
          return { result: 'delivered' };
        }
        const reason = failed(`status_${status}`);
        if (isRetryableStatus(status)) return { result: 'retryable', reason };
        span.addEvent('handoff dead-lettered', { reason, [ATTR_HANDOFF_ID]: handoff.handoff_id });
        return { result: 'permanent', reason };
      } catch (err) {
        // Unreachable, or timed out before an answer: the receiver may not have it yet.
        return { result: 'retryable', reason: failed(failureReason(err, status, is2xx)) };
      } finally {
        timer.clear();
      }
    }),
  );
}
