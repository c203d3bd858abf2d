import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/errors.ts';
import type { ChatContext } from '../../src/pipeline/context.ts';
import { receiveRequest } from '../../steps/receive-request.ts';
import { validateRequest } from '../../steps/validate-request.ts';
import { fakeDeps } from './fake-deps.ts';
import { applyPatch, freshContext, validRequest } from './step-context.ts';

/** The context validateRequest sees: after receiveRequest has trimmed the message. */
function received(message: string): ChatContext {
  const ctx = freshContext(validRequest({ message }));
  return applyPatch(ctx, receiveRequest(ctx, fakeDeps().deps));
}

function rejection(ctx: ChatContext): RequestValidationError {
  try {
    validateRequest(ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return err as RequestValidationError;
  }
  throw new Error('expected validateRequest to throw');
}

describe('validateRequest (processing rule 2)', () => {
  it('accepts an ordinary message', () => {
    expect(() => validateRequest(received('Do you allow cats?'))).not.toThrow();
  });

  it.each(['', ' ', ' \n\t\r\n ', '\u00a0\u2003'])('rejects an empty or white-space-only message (%j) with 400 naming the field', (message) => {
    const err = rejection(received(message));
    expect(err.field).toBe('message');
    expect(err.statusCode).toBe(400);
    expect(err.message).toContain('message');
  });

  it.each([
    ['ASCII', 'a'],
    ['accented', 'é'],
    ['emoji (two UTF-16 units, four bytes)', '😀'],
    ['CJK', '語'],
  ])('counts characters, not bytes or UTF-16 units: 4000 %s characters pass, 4001 fail', (_label, char) => {
    expect(() => validateRequest(received(char.repeat(4000)))).not.toThrow();
    expect(rejection(received(char.repeat(4001))).field).toBe('message');
  });

  it('measures the length after trimming', () => {
    expect(() => validateRequest(received(`   ${'x'.repeat(4000)}\n\n  `))).not.toThrow();
    expect(rejection(received(` ${'x'.repeat(4001)} `)).field).toBe('message');
  });
});
