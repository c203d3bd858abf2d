import type { ChatRequest, HistoryItem } from '../../schemas/chat-request.schema.ts';
import type { AgentHandoff, ChatResponse } from '../../schemas/chat-response.schema.ts';
import type { EngineReply, Language } from '../../schemas/engine.schema.ts';
import type { Contact } from '../../schemas/handoff.schema.ts';
import type { SessionEntry } from '../cache/session-cache.ts';

/** The reply as it will be delivered: formatted, and translated when the reply language asks for it. */
export interface FormattedReply {
  response: string;
  follow_up: string;
  /** Language the text is actually written in (may fall back to `en` when translation failed). */
  language: Language;
  not_available: unknown[];
}

/** Where the engine-shaped answer came from: the engine itself, or the session cache. */
export type ReplySource = 'engine' | 'cache';

/** The response body without `latency`, which the route adds from the step timings. */
export type AssembledResponse = Omit<ChatResponse, 'latency'>;

/** What the pipeline knows about one chat request; each step reads it and returns a patch. */
export interface ChatContext {
  /** The validated body: never modified by a step. */
  readonly request: ChatRequest;
  readonly traceId: string;
  /** The caller's `Idempotency-Key` (checked, quotes of the quoted form removed), if any. */
  readonly idempotencyKey: string | undefined;
  /**
   * CONTRACTS 6.1: when the chat must be answered, on the `performance.now()` clock (ms). Every
   * downstream call and every wait gets at most what is left.
   */
  readonly deadlineAt: number;

  /** Base of `clientMessageKey`: derived from (orgId, idempotency key), or a fresh UUID. Never the trace id. */
  requestId?: string;
  /** The message with surrounding white space trimmed. */
  message?: string;
  /** What the session cache holds for this session; null when nothing (or the cache is down). */
  session?: SessionEntry | null;
  /** The language the reply should be delivered in. */
  language?: Language;
  /** History as forwarded to the engine (at most 4 items). */
  history?: HistoryItem[];
  engineReply?: EngineReply;
  replySource?: ReplySource;
  reply?: FormattedReply;
  /** Contact details found in the message; null when none were looked for or found. */
  contact?: Contact | null;
  agentHandoff?: AgentHandoff | null;
  questionId?: string;
  answerId?: string;
  response?: AssembledResponse;
}

/** The mutable part of the context: what a step may return. */
export type ContextPatch = Partial<Omit<ChatContext, 'request' | 'traceId' | 'idempotencyKey' | 'deadlineAt'>>;

/** Reads a member an earlier step must have set; its absence is a defect in the step order. */
export function need<K extends keyof ChatContext>(ctx: Readonly<ChatContext>, key: K): NonNullable<ChatContext[K]> {
  const value = ctx[key];
  if (value === undefined || value === null) {
    throw new Error(`pipeline order: '${String(key)}' is not set yet`);
  }
  return value as NonNullable<ChatContext[K]>;
}
