// Asks POST /chat_adapter for a streamed reply (the AI SDK UI message stream) and reads it as it
// comes: progress parts say which step just finished, text parts grow the reply, the data-chat
// part is the complete JSON answer. An answer that is not a stream (an error, or a service that
// streams nothing) is read as JSON, as before.

const EVENT_STREAM = 'text/event-stream';

/**
 * @typedef {{ onStep?: (name: string, ms: number) => void, onText?: (textSoFar: string) => void }} ChatView
 * @typedef {{ status: number, ok: boolean, answer: any, errorText: string | undefined }} ChatResult
 */

/**
 * Reads the `data:` events of an event stream body, in order, as they arrive.
 * @param {ReadableStream<Uint8Array>} body
 * @param {(data: string) => void} onData
 */
async function readEvents(body, onData) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of block.split('\n')) if (line.startsWith('data: ')) onData(line.slice(6));
      end = buffer.indexOf('\n\n');
    }
  }
}

/**
 * Sends one chat; the view is told of progress and text while a streamed reply arrives.
 * @param {Record<string, string>} headers
 * @param {unknown} body
 * @param {ChatView} view
 * @returns {Promise<ChatResult>}
 */
export async function requestChat(headers, body, view) {
  const res = await fetch('/chat_adapter', {
    method: 'POST',
    headers: { ...headers, accept: `${EVENT_STREAM}, application/json;q=0.9` },
    body: JSON.stringify(body),
  });
  if (!(res.headers.get('content-type') ?? '').startsWith(EVENT_STREAM) || res.body === null) {
    const answer = await res.json().catch(() => ({}));
    const detail = typeof answer.detail === 'string' ? answer.detail : answer.detail?.message;
    return { status: res.status, ok: res.ok, answer, errorText: res.ok ? undefined : detail ?? res.statusText };
  }
  let text = '';
  /** @type {any} */
  let answer;
  /** @type {string | undefined} */
  let errorText;
  await readEvents(res.body, (data) => {
    if (data === '[DONE]') return;
    const part = JSON.parse(data);
    if (part.type === 'data-step') view.onStep?.(part.data.name, part.data.ms);
    else if (part.type === 'text-delta') view.onText?.((text += part.delta));
    else if (part.type === 'data-chat') answer = part.data;
    else if (part.type === 'error') errorText = part.errorText;
  });
  return { status: res.status, ok: errorText === undefined && answer !== undefined, answer, errorText: errorText ?? (answer === undefined ? 'the stream ended early' : undefined) };
}
