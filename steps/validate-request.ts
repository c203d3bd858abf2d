import { MESSAGE_MAX_CHARS } from '../schemas/chat-request.schema.ts';
import { need, type ChatContext } from '../src/pipeline/context.ts';
import { RequestValidationError } from '../src/errors.ts';

/**
 * Processing rule 2: the request is validated. Field formats are checked by the request schema before the
 * pipeline starts, and the Idempotency-Key header by the idempotency plugin (before the message
 * waits its turn); this step checks what a schema cannot: the message length after trimming.
 */
export function validateRequest(ctx: Readonly<ChatContext>): void {
  const message = need(ctx, 'message');
  if (message.length === 0) throw new RequestValidationError('message', 'must not be empty or only white space');
  // Characters are code points (an emoji is one). A text of at most the limit in UTF-16 units has
  // at most that many code points: only a longer one is counted, and only then is it copied.
  if (message.length <= MESSAGE_MAX_CHARS) return;
  const length = [...message].length;
  if (length > MESSAGE_MAX_CHARS) {
    throw new RequestValidationError('message', `must be at most ${MESSAGE_MAX_CHARS} characters after trimming (got ${length})`);
  }
}
