import { describe, expect, it } from 'vitest';
import { receiveRequest } from '../../steps/receive-request.ts';
import { FIXED_ID, fakeDeps } from './fake-deps.ts';
import { freshContext, validRequest } from './step-context.ts';

describe('receiveRequest (rule 1)', () => {
  it('takes the message with surrounding white space trimmed, inner white space kept', () => {
    const { deps } = fakeDeps();
    const request = validRequest({ message: ' \n\t Is the  pool open?\u00a0 \r\n' });
    const patch = receiveRequest(freshContext(request), deps);
    expect(patch.message).toBe('Is the  pool open?');
    expect(request.message).toBe(' \n\t Is the  pool open?\u00a0 \r\n');
  });

  it('uses the Idempotency-Key as request id when the caller sent one', () => {
    const { deps } = fakeDeps();
    const patch = receiveRequest(freshContext(validRequest(), 'retry-key-123'), deps);
    expect(patch.requestId).toBe('retry-key-123');
  });

  it('otherwise takes a fresh id, never the trace id', () => {
    const { deps } = fakeDeps();
    const ctx = freshContext();
    const patch = receiveRequest(ctx, deps);
    expect(patch.requestId).toBe(FIXED_ID);
    expect(patch.requestId).not.toBe(ctx.traceId);
  });
});
