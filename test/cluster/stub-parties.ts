/**
 * The downstream parties of a cluster run, as loopback HTTP servers in the test process, shared by
 * every instance: an engine whose delay the test sets per message, a GraphQL store idempotent on
 * clientMessageKey that keeps messages in the order it received them, a translator, a property API
 * and a handoff receiver that can be down (a refused connection) and records Idempotency-Key.
 */
import { engineReply } from '../helpers/fixtures.ts';
import { handoffReceiverOn } from '../helpers/handoff-receiver.ts';
import { freePort } from '../helpers/redis-server.ts';
import { sendJson, startStub, type RecordedRequest, type StubServer } from '../helpers/stub-server.ts';

/** Messages containing this get an emergency handoff from the engine. */
export const HANDOFF_WORDS = 'flooding';
export const answerTo = (message: string) => `Answer to: ${message}`;

export interface StoredMessage {
  readonly key: string;
  readonly sessionId: string;
  readonly line: string;
}

export interface StubEngine {
  readonly server: StubServer;
  /** How long the engine takes for a message (default: `defaultDelayMs()`). */
  readonly delays: Map<string, number>;
  defaultDelayMs: () => number;
  /** Resolves once the engine has been asked `message` (at once if it already was). */
  asked(message: string): Promise<void>;
  /** How many times it was asked `message`. */
  calls(message: string): number;
}

function startEngine(): Promise<StubEngine> {
  const waiting = new Map<string, Array<() => void>>();
  const seen = new Map<string, number>();
  const engine = {
    delays: new Map<string, number>(),
    defaultDelayMs: () => 0,
    asked: (message: string) =>
      seen.has(message) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(message, [...(waiting.get(message) ?? []), resolve])),
    calls: (message: string) => seen.get(message) ?? 0,
  };
  return startStub((req, res) => {
    const message = String((req.body as { message: string }).message);
    seen.set(message, (seen.get(message) ?? 0) + 1);
    for (const resolve of waiting.get(message) ?? []) resolve();
    waiting.delete(message);
    const reply = message.includes(HANDOFF_WORDS)
      ? engineReply({ intent: 'maintenance', sub_intent: 'emergency_maintenance', response: answerTo(message), follow_up: '' })
      : engineReply({ response: answerTo(message), follow_up: '' });
    setTimeout(() => sendJson(res, 200, reply), engine.delays.get(message) ?? engine.defaultDelayMs());
  }).then((server) => Object.assign(engine, { server }));
}

export interface StubStore {
  readonly server: StubServer;
  /** Every message stored, once per clientMessageKey, in the order the store received them. */
  readonly stored: StoredMessage[];
  /** A key sent again with another role or content (never expected). */
  readonly conflicts: string[];
  /** createServiceMessage calls received per clientMessageKey (more than one: a retry). */
  readonly sends: Map<string, number>;
  conversation(sessionId: string): string[];
}

type GraphqlBody = { query: string; variables: { input: Record<string, unknown> } };

function startStore(): Promise<StubStore> {
  const byKey = new Map<string, StoredMessage & { id: string }>();
  const store = {
    stored: [] as StoredMessage[],
    conflicts: [] as string[],
    sends: new Map<string, number>(),
    conversation: (sessionId: string) => store.stored.filter((m) => m.sessionId === sessionId).map((m) => m.line),
  };
  const handler = (req: RecordedRequest, res: Parameters<Parameters<typeof startStub>[0]>[1]) => {
    const { query, variables } = req.body as GraphqlBody;
    const input = variables.input;
    if (!query.includes('createServiceMessage')) {
      const field = (name: string) => input[name] ?? null;
      const updated = { id: input['conversationId'], updatedAt: new Date().toISOString() };
      for (const name of ['contactName', 'contactPhone', 'contactEmail', 'lastIntent', 'agentHandoff']) Object.assign(updated, { [name]: field(name) });
      sendJson(res, 200, { data: { updateServiceConversation: updated } });
      return;
    }
    const key = String(input['clientMessageKey']);
    store.sends.set(key, (store.sends.get(key) ?? 0) + 1);
    const line = `${String(input['role'])}: ${String(input['content'])}`;
    let kept = byKey.get(key);
    if (kept === undefined) {
      kept = { key, sessionId: String(input['sessionId']), line, id: String(byKey.size + 1) };
      byKey.set(key, kept);
      store.stored.push(kept);
    } else if (kept.line !== line) store.conflicts.push(key);
    sendJson(res, 200, {
      data: { createServiceMessage: { id: kept.id, conversationId: input['conversationId'], role: input['role'], content: input['content'], createdAt: new Date().toISOString() } },
    });
  };
  return startStub(handler).then((server) => Object.assign(store, { server }));
}

export interface StubParties {
  readonly engine: StubEngine;
  readonly store: StubStore;
  readonly translate: StubServer;
  readonly propertyApi: StubServer;
  /** Down until `up()`. */
  readonly receiver: ReturnType<typeof handoffReceiverOn>;
  /** The service's *_URL variables for these parties. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

export async function startStubParties(): Promise<StubParties> {
  const [engine, store, translate, propertyApi, receiverPort] = await Promise.all([
    startEngine(),
    startStore(),
    startStub((req, res) => sendJson(res, 200, { translated_text: `[es] ${(req.body as { text: string }).text}` })),
    startStub((_req, res) => sendJson(res, 404, { error: 'not stubbed' })),
    freePort(),
  ]);
  const receiver = handoffReceiverOn(receiverPort);
  return {
    engine,
    store,
    translate,
    propertyApi,
    receiver,
    env: {
      ENGINE_URL: engine.server.url,
      GRAPHQL_URL: `${store.server.url}/graphql`,
      TRANSLATE_URL: translate.url,
      PROPERTY_API_URL: propertyApi.url,
      HANDOFF_URL: receiver.url,
    },
    async close() {
      await Promise.all([engine.server.close(), store.server.close(), translate.close(), propertyApi.close(), receiver.down()]);
    },
  };
}
