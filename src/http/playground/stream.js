// Reads a streamed chat reply (the AI SDK UI message stream) as it comes: `data-step` parts say which
// step just finished, `text-delta` parts grow the reply, the `data-chat` part is the complete JSON
// answer and an `error` part is a failure after the stream started; an `abort` part ends a reply
// the visitor stopped. Nothing here touches the page.

export const EVENT_STREAM = 'text/event-stream';

/**
 * @typedef {{ onStart?: (messageId: string) => void, onStep?: (name: string, ms: number) => void, onText?: (textSoFar: string) => void }} StreamView
 * @typedef {{ answer: any, errorText: string | undefined, stopped?: { text: string } }} StreamOutcome
 */

/**
 * Calls `onData` with the `data:` of each server-sent event, in order, as the events arrive (an
 * event may be split across chunks, and a chunk may hold several events).
 * @param {ReadableStream<Uint8Array>} body
 * @param {(data: string) => void} onData
 */
async function readEvents(body, onData) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  // Where to look for the next event's end: a long event split over many chunks is scanned once.
  let scanFrom = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let start = 0;
    let end = buffer.indexOf('\n\n', scanFrom);
    while (end !== -1) {
      for (const line of buffer.slice(start, end).split('\n')) if (line.startsWith('data: ')) onData(line.slice(6));
      start = end + 2;
      end = buffer.indexOf('\n\n', start);
    }
    buffer = buffer.slice(start);
    scanFrom = Math.max(0, buffer.length - 1);
  }
}

/**
 * Reads one streamed reply to its end. `errorText` is set when the service reported a failure
 * (its `detail`, as a JSON caller would get it) or the stream ended without the answer; a
 * connection that breaks while reading rejects.
 * @param {ReadableStream<Uint8Array>} body
 * @param {StreamView} view
 * @returns {Promise<StreamOutcome>}
 */
export async function readReplyStream(body, view) {
  let text = '';
  /** @type {any} */
  let answer;
  /** @type {string | undefined} */
  let errorText;
  let stopped = false;
  await readEvents(body, (data) => {
    if (data === '[DONE]') return;
    const part = JSON.parse(data);
    if (part.type === 'start' && typeof part.messageId === 'string') view.onStart?.(part.messageId);
    else if (part.type === 'abort') stopped = true;
    else if (part.type === 'data-step') view.onStep?.(String(part.data?.name), Number(part.data?.ms));
    else if (part.type === 'text-delta' && typeof part.delta === 'string') view.onText?.((text += part.delta));
    else if (part.type === 'data-chat') answer = part.data;
    else if (part.type === 'error') errorText = typeof part.errorText === 'string' ? part.errorText : 'the service failed';
  });
  if (stopped) return { answer: undefined, errorText: undefined, stopped: { text } };
  if (errorText !== undefined || answer !== undefined) return { answer: errorText === undefined ? answer : undefined, errorText };
  return { answer: undefined, errorText: 'the reply stream ended before the answer' };
}
