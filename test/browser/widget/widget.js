// A minimal chat widget on a leasing site's own origin, calling the chat adapter directly with a
// publishable key (docs/browser-widgets.md). Plain fetch and the UI message stream, as the AI SDK's
// DefaultChatTransport reads it. `window.widget.send(message, { stream })` resolves with what the
// page saw, which the browser test reads.
const params = new URLSearchParams(location.search);
const SERVICE = params.get('service');
const KEY = params.get('key');
const CHAT = { propertyId: '1234567890123456789', orgId: '9876543210987654321', conversation_id: '1111111111111111111', graphql_api_key: 'local-demo', tourScheduleEnabled: false, history: [] };
const session = crypto.randomUUID().replaceAll('-', '');

/** Reads a UI message stream: the text deltas joined and the complete answer of its data-chat part. */
async function readStream(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let text = '';
  let answer;
  let errorText;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split('\n').find((line) => line.startsWith('data: '))?.slice(6);
      if (data === undefined || data === '[DONE]') continue;
      const part = JSON.parse(data);
      if (part.type === 'text-delta') text += part.delta;
      if (part.type === 'data-chat') answer = part.data;
      if (part.type === 'error') errorText = part.errorText;
    }
  }
  return { text, answer, errorText };
}

function show(role, text) {
  const item = document.createElement('li');
  item.className = role;
  item.textContent = text;
  document.getElementById('transcript').append(item);
}

async function send(message, { stream = false } = {}) {
  show('user', message);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'idempotency-key': crypto.randomUUID() };
  if (stream) headers.accept = 'text/event-stream';
  let res;
  try {
    res = await fetch(`${SERVICE}/chat_adapter`, { method: 'POST', headers, body: JSON.stringify({ ...CHAT, session_id: session, message }) });
  } catch (err) {
    // A CORS refusal: the browser gives the page no answer at all.
    document.getElementById('status').textContent = 'blocked';
    return { blocked: true, error: String(err) };
  }
  // Readable only because the service exposes them to this origin (Access-Control-Expose-Headers).
  const seen = { status: res.status, traceresponse: res.headers.get('traceresponse'), serverTiming: res.headers.get('server-timing'), contentType: res.headers.get('content-type') };
  if (res.ok && seen.contentType?.startsWith('text/event-stream')) {
    const { text, answer, errorText } = await readStream(res.body);
    show('assistant', text);
    return { ...seen, text, answer, errorText };
  }
  const body = await res.json();
  if (res.ok) show('assistant', body.response);
  else document.getElementById('status').textContent = `${res.status} ${JSON.stringify(body.detail)}`;
  return { ...seen, body };
}

window.widget = { send };
document.getElementById('status').textContent = 'ready';
