import { MESSAGE_MAX_CHARS } from '../schemas/chat-request.schema.ts';
import { need, type ChatContext } from '../src/pipeline/context.ts';
import { RequestValidationError } from '../src/errors.ts';

/**
 * Rule 2: the request is validated. Field formats are checked by the request schema before the
 * pipeline starts, and the Idempotency-Key header by the idempotency plugin (before the message
 * waits its turn); this step checks what a schema cannot: the message length after trimming.
 */
export function validateRequest(ctx: Readonly<ChatContext>): void {
  const length = [...need(ctx, 'message')].length;
  if (length === 0) throw new RequestValidationError('message', 'must not be empty or only white space');
  if (length > MESSAGE_MAX_CHARS) {
    throw new RequestValidationError('message', `must be at most ${MESSAGE_MAX_CHARS} characters after trimming (got ${length})`);
  }
}
