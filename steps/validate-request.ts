import { MESSAGE_MAX_CHARS } from '../schemas/chat-request.schema.ts';
import { need, type ChatContext } from '../src/pipeline/context.ts';
import { RequestValidationError } from '../src/errors.ts';

/** Printable ASCII without spaces, as idempotency keys are in practice (UUIDs, ULIDs, hashes). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/**
 * Rule 2: the request is validated. Field formats are checked by the request schema before the
 * pipeline starts; this step checks what a schema cannot: the message length after trimming and
 * the Idempotency-Key header.
 */
export function validateRequest(ctx: Readonly<ChatContext>): void {
  const length = [...need(ctx, 'message')].length;
  if (length === 0) throw new RequestValidationError('message', 'must not be empty or only white space');
  if (length > MESSAGE_MAX_CHARS) {
    throw new RequestValidationError('message', `must be at most ${MESSAGE_MAX_CHARS} characters after trimming (got ${length})`);
  }
  if (ctx.idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(ctx.idempotencyKey)) {
    throw new RequestValidationError('Idempotency-Key', 'must be 1..200 printable ASCII characters without spaces');
  }
}
