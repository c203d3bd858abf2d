import { performance } from 'node:perf_hooks';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { requestIdFor } from '../pipeline/request-id.ts';
import type { StreamReplay } from './admission-answer.ts';
import { wantsEventStream } from './stream-accept.ts';
import { UiMessageStreamWriter } from './stream-writer.ts';

/**
 * docs/api.md#idempotency, docs/api.md#streamed-replies: a retry that asks for a stream gets the kept answer as one: its text as one
 * delta and the kept JSON answer, byte for byte, as the `data-chat` part; nothing runs again.
 */
export const replayAsStream: StreamReplay = (request, reply, keptBody, key) => {
  if (!wantsEventStream(request)) return false;
  const kept = JSON.parse(keptBody) as { response?: unknown };
  void reply.hijack();
  const stream = new UiMessageStreamWriter(reply.raw, { ...reply.getHeaders(), 'idempotent-replayed': 'true' });
  stream.start(`${requestIdFor((request.body as ChatRequest).orgId, key)}:answer`);
  stream.completeText(typeof kept.response === 'string' ? kept.response : '', performance.now());
  stream.chat(keptBody);
  stream.finish();
  return true;
};
