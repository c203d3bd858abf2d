/**
 * Time to first reply text, per target: sequential chats (each in a new session, nothing else
 * running), timed from sending the request to the first reply text received. A streamed answer's
 * first text is its first `text-delta` part; a JSON answer's text comes with its last byte.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

const TEXT_DELTA = '"type":"text-delta"';

function body(): string {
  return JSON.stringify({
    propertyId: '1234567890123456789',
    orgId: '9876543210987654321',
    conversation_id: '1111111111111111111',
    graphql_api_key: 'bench-caller-key_1',
    tourScheduleEnabled: true,
    history: [],
    message: 'What are your office hours on Saturday?',
    session_id: randomBytes(16).toString('hex'),
  });
}

function once(url: string, headers: Readonly<Record<string, string>>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(`${url}/chat_adapter`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      const streamed = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      let text = '';
      let at: number | undefined;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!streamed || at !== undefined) return;
        text += chunk;
        if (text.includes(TEXT_DELTA)) at = performance.now();
      });
      res.on('end', () => resolve((at ?? performance.now()) - started));
      res.on('error', reject);
    });
    req.end(body());
  });
}

/** The median over `samples` chats, in ms. */
export async function timeToFirstText(url: string, headers: Readonly<Record<string, string>> = {}, samples = 30): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await once(url, headers));
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}
