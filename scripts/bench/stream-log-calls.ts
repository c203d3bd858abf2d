/**
 * What keeping a streamed reply for resumers (docs/api.md#resuming-a-streamed-reply) costs a chat
 * that nobody resumes, in the service's process, for `npm run bench:clients`: one turn written to
 * the stream log as the route writes it (its `start` part, then, a turn of the event loop later,
 * the reply's text parts, the `data-chat` part with the whole answer and `finish`, then the end),
 * in process (no REDIS_URL) and in Redis (src/streams/). Every turn is a new conversation, as
 * when many visitors chat at once: the in-process log then keeps each turn until its byte ceiling
 * pushes it out.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createMemoryStreamLog } from '../../src/streams/memory-stream-log.ts';
import { createRedisStreamLog } from '../../src/streams/redis-stream-log.ts';
import type { StreamLog, StreamLogWriter } from '../../src/streams/stream-log.ts';
import { readyRedis } from './ready-redis.ts';

const RESPONSE = 'Our leasing office is open Monday to Friday from 9 AM to 6 PM, and Saturday from 10 AM to 4 PM.';
/** The benchmark's streamed answer (the `data-chat` part of a reply of the stubs' engine), about 1.1 KB. */
const CHAT_PART =
  `{"type":"data-chat","data":{"response":"${RESPONSE}","intent":"office_hours","sub_intent":"office_hours","message_id":"1042",` +
  '"retrieval_type":"fixed","orchestrator_level1_details":{},"orchestrator_level2_details":{},"keyword_cache":{},"not_available":[],"context":null,' +
  '"follow_up":"Would you like to schedule a tour?","latency":{"service_engine_latency":17.37,"chat_adapter_latency":35.051,' +
  '"extract_and_update_contact_latency":0.077,"create_message_latency":7.828,"steps":{"waitForTurn":1.162,"receiveRequest":0.058,' +
  '"validateRequest":0.044,"loadSession":0.128,"chooseLanguage":0.062,"trimHistory":0.027,"reuseCachedReply":0.099,"askEngine":17.37,' +
  '"answerFromPropertyApi":0.067,"formatReply":0.376,"translateReply":0.035,"extractContact":0.031,"decideHandoff":0.045,"updateConversation":0.045,' +
  '"storeQuestion":5.245,"startHandoff":0.064,"storeAnswer":2.583,"rememberTurn":0.893,"assembleResponse":0.088}},"language":"en",' +
  '"agent_handoff":null,"memory":null,"trace_id":"a124c50be509c66c0a24bdfbec415302"}}';

const run = randomBytes(4).readUInt32BE(0) % 1_000_000;
let sequence = 0;

/** One streamed turn with nobody resuming it, as src/http/stream-writer.ts writes it (the SSE ids of the benchmark's reply). */
const turnOf = (log: StreamLog) => async (): Promise<void> => {
  const conversationId = `1${String(run).padStart(6, '0')}${String(sequence++).padStart(12, '0')}`;
  // As the route names it: the request id (a UUID), then `:answer`.
  const messageId = `${randomUUID()}:answer`;
  const writer = log.open(conversationId, { messageId, scope: { orgId: '9876543210987654321', propertyId: '1234567890123456789', sessionId: 'd41d8cd98f00b204e9800998ecf8427e' } });
  writer.onStop(() => {});
  writer.append(1, `{"type":"start","messageId":"${messageId}"}`, false);
  // The pipeline runs between the start and the reply (the progress parts are not kept).
  await nextTurn();
  writer.append(13, '{"type":"text-start","id":"reply"}', false);
  writer.append(14, `{"type":"text-delta","id":"reply","delta":"${RESPONSE}"}`, false);
  writer.append(15, '{"type":"text-end","id":"reply"}', false);
  writer.append(24, CHAT_PART, false);
  writer.append(25, '{"type":"finish","finishReason":"stop"}', false);
  await writer.end('finished');
};

/** A log that keeps nothing: what the harness itself costs, to take from the others. */
const NO_WRITER: StreamLogWriter = { append: () => {}, end: async () => {}, onStop: () => {} };
const NO_LOG: StreamLog = { open: () => NO_WRITER, find: async () => undefined, requestStop: async () => {}, close: async () => {} };

export interface StreamLogKinds {
  readonly kinds: Record<string, () => Promise<unknown>>;
  close(): Promise<void>;
}

export async function streamLogKinds(url: string): Promise<StreamLogKinds> {
  const client = await readyRedis(url);
  const memory = createMemoryStreamLog();
  const redis = createRedisStreamLog(client);
  return {
    kinds: {
      'stream log, none (the harness)': turnOf(NO_LOG),
      'stream log, in process': turnOf(memory),
      'stream log, Redis': turnOf(redis),
    },
    async close() {
      await Promise.all([memory.close(), redis.close()]);
      await client.quit();
    },
  };
}
