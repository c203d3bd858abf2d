/** What the playground says about a message that got no reply (chat-client.js, loaded as the browser loads it). */
import { describe, expect, it } from 'vitest';
import { CUT_OFF, describeBrokenReply, describeFailure, traceIdOf, UNREACHABLE } from '../../src/http/playground/chat-client.js';
import { traceResponse } from '../../src/http/trace-response.ts';
import { trace, TraceFlags } from '@opentelemetry/api';

describe('describeFailure', () => {
  it('a party down (503) or a defect (500) while answering: "No reply", in the words a streamed reply\'s error part uses', () => {
    for (const detail of ['engine unavailable', 'graphql unavailable', 'handoff unavailable']) {
      expect(describeFailure(503, { detail }, '1')).toEqual(describeBrokenReply(detail));
    }
    expect(describeFailure(503, { detail: 'engine unavailable' }, null)).toEqual({
      short: 'engine unavailable',
      long: 'The service failed while answering (engine unavailable). Press Retry on the message.',
      retryable: true,
      sent: true,
    });
    expect(describeFailure(500, { detail: { message: 'Internal server error', trace_id: 'abc' } }, null)).toEqual(describeBrokenReply('Internal server error'));
  });

  it('the service not taking the message (overloaded, shutting down, a proxy): unavailable, "Not sent", with the wait when given', () => {
    for (const detail of ['Service overloaded', 'Service shutting down', 'Service Unavailable']) {
      const problem = describeFailure(503, { detail }, '5');
      expect(problem).toMatchObject({ short: 'the service is unavailable', retryable: true });
      expect(problem.sent).toBeUndefined();
      expect(problem.long).toContain('press Retry on the message in 5 s.');
    }
    // A proxy's HTML error page is not JSON: the status stands in for the detail.
    expect(describeFailure(502, undefined, null).long).toContain('(HTTP 502)');
  });

  it('a refused message (400, 413, 415, 422): its detail, not retryable, Edit instead', () => {
    const refused = describeFailure(400, { detail: { message: "Invalid request: 'message' must be at most 4000 characters", trace_id: 'x' } }, null);
    expect(refused).toEqual({
      short: 'refused by the service',
      long: "The service refused the message (400): Invalid request: 'message' must be at most 4000 characters. Press Edit on the message to change it.",
      retryable: false,
    });
    for (const status of [413, 415, 422]) expect(describeFailure(status, { detail: 'x' }, null).retryable).toBe(false);
  });

  it('rate limited, still running, key refused, internal error: retryable, each said in its own words', () => {
    expect(describeFailure(429, { detail: 'Too Many Requests' }, '12')).toMatchObject({ short: 'too many messages', retryable: true });
    expect(describeFailure(429, { detail: 'Too Many Requests' }, '12').long).toContain('in 12 s');
    expect(describeFailure(409, { detail: 'A request with this Idempotency-Key is still being processed' }, '1')).toMatchObject({ short: 'an earlier try is still running', retryable: true });
    expect(describeFailure(401, { detail: 'Unauthorized' }, null).long).toContain('set it under Keys');
    expect(describeFailure(500, undefined, null)).toMatchObject({ short: 'the service failed', retryable: true });
  });

  it('never words a failure as "Failed to fetch"', () => {
    expect(UNREACHABLE.long).not.toMatch(/fetch/i);
    expect(UNREACHABLE).toMatchObject({ short: 'the service is not answering', retryable: true });
  });
});

describe('a streamed reply that broke off', () => {
  it("the service's error part: its text on the message, said as a failure while answering, retryable", () => {
    expect(describeBrokenReply('engine unavailable')).toEqual({
      short: 'engine unavailable',
      long: 'The service failed while answering (engine unavailable). Press Retry on the message.',
      retryable: true,
      sent: true,
    });
  });

  it('the connection closed mid-stream: cut off, retryable, never "Failed to fetch"', () => {
    expect(CUT_OFF).toMatchObject({ short: 'the reply was cut off', retryable: true, sent: true });
    expect(CUT_OFF.long).not.toMatch(/fetch/i);
  });
});

describe('traceIdOf', () => {
  it('reads the trace id of the service\'s traceresponse header, and nothing of anything else', () => {
    const span = trace.wrapSpanContext({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED });
    expect(traceIdOf(traceResponse(span, 'unused'))).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    for (const other of [null, '', '00-abc-def-01', 'not-a-trace-response-header', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01']) expect(traceIdOf(other)).toBeUndefined();
  });
});
