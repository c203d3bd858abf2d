/**
 * The pass-through baseline of the benchmark, in a process of its own (started by run.ts with
 * PORT and STUB_URL): bare Fastify + undici doing exactly the service's downstream calls for a
 * `fixed` reply (`POST /query` to the engine, then two `createServiceMessage` mutations, one after
 * the other) and answering with a body of the chat response's shape. No validation, formatting,
 * tracing, metrics or logging: the floor any implementation of the service pays on this machine.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { Pool } from 'undici';

const stubUrl = process.env['STUB_URL'] ?? '';
const engine = new Pool(stubUrl, { connections: 128 });
const graphql = new Pool(stubUrl, { connections: 128 });

const CREATE_MESSAGE = `mutation CreateServiceMessage($input: CreateServiceMessageInput!) {
  createServiceMessage(input: $input) { id conversationId role content createdAt }
}`;

interface Body {
  readonly [member: string]: unknown;
  readonly message: string;
  readonly conversation_id: string;
  readonly graphql_api_key: string;
}

interface EngineAnswer {
  response: string;
  intent: string;
  sub_intent: string;
  retrieval_type: string;
  follow_up?: string | null;
}

async function postJson<T>(pool: Pool, path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
  return (await res.body.json()) as T;
}

async function createMessage(body: Body, requestId: string, role: 'USER' | 'ASSISTANT', content: string): Promise<{ id: string }> {
  const input = { conversationId: body.conversation_id, role, content, clientMessageKey: `${requestId}:${role}` };
  const answer = await postJson<{ data: { createServiceMessage: { id: string } } }>(graphql, '/graphql', { query: CREATE_MESSAGE, variables: { input } }, {
    authorization: 'bench-authorization',
    'x-api-key': 'bench-api-key',
    'x-graphql-api-key': body.graphql_api_key,
  });
  return answer.data.createServiceMessage;
}

const app = Fastify({ logger: false });
app.get('/heartbeat', async () => ({ success: 1 }));
app.post('/chat_adapter', async (request) => {
  const started = performance.now();
  const body = request.body as Body;
  const requestId = randomUUID();
  const { graphql_api_key: _key, ...forwarded } = body;
  const reply = await postJson<EngineAnswer>(engine, '/query', { ...forwarded, history: [], language: 'en' });
  const engineMs = performance.now() - started;
  await createMessage(body, requestId, 'USER', body.message);
  const answer = await createMessage(body, requestId, 'ASSISTANT', reply.response);
  const totalMs = performance.now() - started;
  return {
    response: reply.response,
    intent: reply.intent,
    sub_intent: reply.sub_intent,
    message_id: answer.id,
    retrieval_type: reply.retrieval_type,
    orchestrator_level1_details: {},
    orchestrator_level2_details: {},
    keyword_cache: {},
    not_available: [],
    context: null,
    follow_up: reply.follow_up ?? '',
    latency: {
      service_engine_latency: engineMs,
      chat_adapter_latency: totalMs,
      extract_and_update_contact_latency: 0,
      create_message_latency: totalMs - engineMs,
      steps: { askEngine: engineMs, storeMessages: totalMs - engineMs },
    },
    language: 'en',
    agent_handoff: null,
    memory: null,
    trace_id: '',
  };
});

await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => Promise.all([engine.close(), graphql.close()])).then(() => process.exit(0));
});
