import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalParty, type LocalStack } from '../../src/local/index.ts';

export const MAPLE_COURT = '1234567890123456789';
export const HARBOR_VIEW = '9876543210987654321';
export const ALL_PARTIES: ReadonlySet<LocalParty> = new Set(['engine', 'graphql', 'propertyApi', 'handoff', 'translate']);

export interface LogLine { readonly level: 'info' | 'warn'; readonly obj: object; readonly msg: string }

export interface TestStack extends LocalStack {
  readonly dataDir: string;
  readonly logs: LogLine[];
  /** Closes the stack and removes its data directory. */
  dispose(): Promise<void>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'local-stack-test-'));
}

/** Starts the stack on loopback with a fresh temp data dir (or the one given) and a capturing logger. */
export async function startTestStack(parties: ReadonlySet<LocalParty> = ALL_PARTIES, dataDir = tempDataDir()): Promise<TestStack> {
  const logs: LogLine[] = [];
  const stack = await startLocalStack({
    dataDir,
    parties,
    logger: {
      info: (obj, msg) => { logs.push({ level: 'info', obj, msg }); },
      warn: (obj, msg) => { logs.push({ level: 'warn', obj, msg }); },
    },
  });
  return {
    ...stack,
    dataDir,
    logs,
    dispose: async () => {
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function url(stack: LocalStack, party: LocalParty): string {
  const base = stack.urls[party];
  if (base === undefined) throw new Error(`party ${party} not started`);
  return base;
}

export interface JsonResponse { readonly status: number; readonly body: any }

export async function postJson(target: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

export async function getJson(target: string): Promise<JsonResponse> {
  const res = await fetch(target);
  return { status: res.status, body: await res.json() };
}

/** An engine request as the service sends it (docs/contracts.md#engine): no graphql_api_key, language added. */
export function engineRequest(message: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    propertyId: MAPLE_COURT,
    message,
    orgId: '5550001112223334445',
    session_id: 'fake_service_session_id',
    conversation_id: '7770001112223334445',
    tourScheduleEnabled: true,
    history: [],
    spanish_support_enabled: true,
    spanish_toggle: false,
    is_first_entry: false,
    language: 'en',
    ...overrides,
  };
}

export const GRAPHQL_KEY = 'local-Key_123';

/** POSTs a GraphQL operation the way the service does (the headers of docs/contracts.md#graphql-store). */
export async function graphql(
  stack: LocalStack, query: string, variables: Record<string, unknown> = {},
  headers: Record<string, string> = { 'x-graphql-api-key': GRAPHQL_KEY },
): Promise<JsonResponse> {
  return postJson(url(stack, 'graphql'), { query, variables }, headers);
}

export const CREATE_MESSAGE = `mutation Create($input: CreateServiceMessageInput!) {
  createServiceMessage(input: $input) { id conversationId role content createdAt } }`;
export const UPDATE_CONVERSATION = `mutation Update($input: UpdateServiceConversationInput!) {
  updateServiceConversation(input: $input) { id contactName contactPhone contactEmail lastIntent agentHandoff updatedAt } }`;
export const READ_CONVERSATION = `query Read($id: ID!) { conversation(id: $id) {
  id propertyId orgId sessionId contactName contactPhone contactEmail lastIntent agentHandoff createdAt updatedAt
  messages { id role content traceId clientMessageKey intent subIntent retrievalType language entryId createdAt }
  handoffs { id intent subIntent message contactName contactPhone contactEmail traceId receivedAt } } }`;

export function messageInput(conversationId: string, key: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    conversationId, propertyId: MAPLE_COURT, orgId: '5550001112223334445', sessionId: 'fake_service_session_id',
    role: 'USER', content: 'Do you allow pets?', traceId: '0af7651916cd43dd8448eb211c80319c', clientMessageKey: key,
    ...overrides,
  };
}
