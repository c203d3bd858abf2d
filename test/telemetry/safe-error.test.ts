import { describe, expect, it } from 'vitest';
import { DownstreamError, RequestValidationError, StepError } from '../../src/errors.ts';
import { describeError, stackFrames } from '../../src/telemetry/safe-error.ts';

describe('describeError', () => {
  it('keeps the messages this service builds from fixed text', () => {
    expect(describeError(new DownstreamError('engine', 'timed out'))).toEqual({ error: 'DownstreamError', reason: 'engine: timed out' });
    expect(describeError(new RequestValidationError('message', 'must not be empty'))).toMatchObject({ reason: "Invalid request: 'message' must not be empty" });
    const fastify = Object.assign(new Error("Body is not valid JSON but content-type is set to 'application/json'"), { code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    expect(describeError(fastify)).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', reason: fastify.message });
  });

  it('drops any other message, which may quote input', () => {
    let parseError: unknown;
    try {
      JSON.parse('call Maria at 555-2671');
    } catch (err) {
      parseError = err;
    }
    expect(String((parseError as Error).message)).toContain('Maria');
    expect(describeError(parseError)).toEqual({ error: 'SyntaxError' });
    expect(describeError(Object.assign(new Error('secret'), { code: 'ECONNRESET' }))).toEqual({ error: 'Error', code: 'ECONNRESET' });
    expect(describeError('a thrown string')).toEqual({ error: 'string' });
  });

  it('names the failed step and describes its cause by the same rule', () => {
    expect(describeError(new StepError('startHandoff', new TypeError('cannot read maria@example.com')))).toEqual({
      error: 'StepError',
      reason: 'step startHandoff failed: TypeError',
    });
    expect(describeError(new StepError('askEngine', new DownstreamError('engine', 'unreachable')))).toMatchObject({
      reason: 'step askEngine failed: engine: unreachable',
    });
  });

  it('gives stack frames without the message line', () => {
    const frames = stackFrames(new Error('hello Maria'))!;
    expect(frames).not.toContain('Maria');
    expect(frames.split('\n').every((l) => l.startsWith('    at '))).toBe(true);
  });
});
