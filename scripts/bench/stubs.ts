/**
 * Zero-delay downstream parties for the benchmark, in a process of their own (started by run.ts
 * with PORT): the engine (`POST /query`, a `fixed` reply), the GraphQL API (`createServiceMessage`
 * and `updateServiceConversation`), the handoff receiver, the translator, and an OTLP/HTTP sink
 * (`POST /v1/traces`). Every answer is fixed text built once, so the stubs spend as little CPU as
 * possible on the cores they share with the measured process.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const ENGINE_REPLY = JSON.stringify({
  response: 'Our leasing office is open **Monday to Friday** from 9 AM to 6 PM, and Saturday from 10 AM to 4 PM.',
  intent: 'office_hours',
  sub_intent: 'office_hours',
  retrieval_type: 'fixed',
  orchestrator_level1_details: {},
  orchestrator_level2_details: {},
  keyword_cache: {},
  not_available: [],
  context: null,
  follow_up: 'Would you like to schedule a tour?',
  memory: null,
  agent_handoff: null,
});

const createdAt = new Date().toISOString();
const MESSAGE_CREATED = JSON.stringify({
  data: { createServiceMessage: { id: '1042', conversationId: '1111111111111111111', role: 'ASSISTANT', content: 'stored', createdAt } },
});
const CONVERSATION_UPDATED = JSON.stringify({
  data: {
    updateServiceConversation: {
      id: '1111111111111111111', contactName: null, contactPhone: null, contactEmail: null,
      lastIntent: 'office_hours', agentHandoff: null, updatedAt: createdAt,
    },
  },
});
const TRANSLATED = JSON.stringify({ translated_text: 'Nuestra oficina abre de lunes a viernes.' });

/** Collects the body only where the answer depends on it (which GraphQL mutation was asked). */
function readBody(req: IncomingMessage, then: (body: string) => void): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => then(body));
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

const server = createServer((req, res) => {
  const url = req.url ?? '';
  if (url === '/graphql') {
    readBody(req, (body) => send(res, 200, body.includes('updateServiceConversation') ? CONVERSATION_UPDATED : MESSAGE_CREATED));
    return;
  }
  req.resume();
  req.on('end', () => {
    if (url === '/query') send(res, 200, ENGINE_REPLY);
    else if (url === '/handoff') send(res, 202, '{"accepted":true}');
    else if (url === '/translate') send(res, 200, TRANSLATED);
    else if (url === '/v1/traces') send(res, 200, '{}');
    else if (url === '/heartbeat') send(res, 200, '{"success":1}');
    else send(res, 404, '{"error":"not stubbed"}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env['PORT']), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
