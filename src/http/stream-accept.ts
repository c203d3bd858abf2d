import type { FastifyRequest } from 'fastify';

const EVENT_STREAM = 'text/event-stream';
const JSON_TYPE = 'application/json';

/** The `q` of one Accept entry (1 when absent; 0 for a value that is not a number in 0..1). */
function quality(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name?.trim().toLowerCase() === 'q') {
      const q = Number(value?.trim());
      return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    }
  }
  return 1;
}

/**
 * docs/api.md#streamed-replies: the caller asks for a stream with `Accept: text/event-stream`. Listed next to JSON,
 * the stream is chosen unless JSON is preferred (a higher q); wildcards alone stay JSON.
 */
export function wantsEventStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (accept === undefined || !accept.includes(EVENT_STREAM)) return false;
  let stream = 0;
  let json = 0;
  for (const entry of accept.split(',')) {
    const [type, ...params] = entry.split(';');
    const name = type?.trim().toLowerCase();
    if (name === EVENT_STREAM) stream = Math.max(stream, quality(params));
    else if (name === JSON_TYPE) json = Math.max(json, quality(params));
  }
  return stream > 0 && stream >= json;
}
