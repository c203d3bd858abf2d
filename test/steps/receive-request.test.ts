import { describe, expect, it } from 'vitest';
import { receiveRequest } from '../../steps/receive-request.ts';
import { FIXED_ID, fakeDeps } from './fake-deps.ts';
import { freshContext, validRequest } from './step-context.ts';

describe('receiveRequest (processing rule 1)', () => {
  it('takes the message with surrounding white space trimmed, inner white space kept', () => {
    const { deps } = fakeDeps();
    const request = validRequest({ message: ' \n\t Is the  pool open?\u00a0 \r\n' });
    const patch = receiveRequest(freshContext(request), deps);
    expect(patch.message).toBe('Is the  pool open?');
    expect(request.message).toBe(' \n\t Is the  pool open?\u00a0 \r\n');
  });

  it('with an Idempotency-Key, derives the request id from the organisation and the key (a UUID, the same on a retry)', () => {
    const { deps } = fakeDeps();
    const first = receiveRequest(freshContext(validRequest(), 'retry-key-123'), deps).requestId;
    const retry = receiveRequest(freshContext(validRequest({ message: 'another text' }), 'retry-key-123'), deps).requestId;
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retry).toBe(first);
    expect(first).not.toBe(FIXED_ID);
  });

  it('two organisations sending the same Idempotency-Key get different request ids', () => {
    const { deps } = fakeDeps();
    const ours = receiveRequest(freshContext(validRequest({ orgId: '1111111111111111111' }), 'same-key'), deps).requestId;
    const theirs = receiveRequest(freshContext(validRequest({ orgId: '2222222222222222222' }), 'same-key'), deps).requestId;
    expect(ours).not.toBe(theirs);
  });

  it('otherwise takes a fresh id, never the trace id', () => {
    const { deps } = fakeDeps();
    const ctx = freshContext();
    const patch = receiveRequest(ctx, deps);
    expect(patch.requestId).toBe(FIXED_ID);
    expect(patch.requestId).not.toBe(ctx.traceId);
  });
});
