import type { ChatRequest, HistoryItem } from '../../schemas/chat-request.schema.ts';
import type { AgentHandoff, ChatResponse } from '../../schemas/chat-response.schema.ts';
import type { EngineReply, Language } from '../../schemas/engine.schema.ts';
import type { Contact } from '../../schemas/handoff.schema.ts';
import type { SessionEntry } from './session-cache-port.ts';
import type { ReplyTextSink } from './ports.ts';

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
   * docs/api.md#deadline: when the chat must be answered, on the `performance.now()` clock (ms). Every
   * downstream call and every wait gets at most what is left.
   */
  readonly deadlineAt: number;
  /** Set when the caller asked for a stream (docs/api.md#streamed-replies): reply text goes there as it becomes final. */
  readonly textOut: ReplyTextSink | undefined;
  /** Fired when the visitor stops a streamed reply (docs/api.md#stopping-a-streamed-reply): the engine call is aborted. */
  readonly stopSignal: AbortSignal | undefined;

  /** Base of `clientMessageKey`: derived from (orgId, idempotency key), or a fresh UUID. Never the trace id. */
  requestId?: string | undefined;
  /** The message with surrounding white space trimmed. */
  message?: string | undefined;
  /** What the session cache holds for this session; null when nothing (or the cache is down). */
  session?: SessionEntry | null | undefined;
  /** The language the reply should be delivered in. */
  language?: Language | undefined;
  /** History as forwarded to the engine (at most 4 items). */
  history?: HistoryItem[] | undefined;
  engineReply?: EngineReply | undefined;
  replySource?: ReplySource | undefined;
  reply?: FormattedReply | undefined;
  /** Contact details found in the message; null when none were looked for or found. */
  contact?: Contact | null | undefined;
  agentHandoff?: AgentHandoff | null | undefined;
  questionId?: string | undefined;
  answerId?: string | undefined;
  response?: AssembledResponse | undefined;
}

/**
 * A chat's context with every member a step may set already present (undefined): the object keeps
 * one shape from the first step to the last, so merging a step's patch overwrites members instead
 * of growing the object (a new hidden class and a larger property store at each step).
 */
export function newChatContext(
  init: Pick<ChatContext, 'request' | 'traceId' | 'idempotencyKey' | 'deadlineAt'> & { readonly textOut?: ReplyTextSink | undefined; readonly stopSignal?: AbortSignal | undefined },
): ChatContext {
  // Every member, the optional ones too: a member added to ChatContext but not here fails to compile.
  const ctx: { [Member in keyof ChatContext]-?: ChatContext[Member] } = {
    request: init.request,
    traceId: init.traceId,
    idempotencyKey: init.idempotencyKey,
    deadlineAt: init.deadlineAt,
    textOut: init.textOut,
    stopSignal: init.stopSignal,
    requestId: undefined,
    message: undefined,
    session: undefined,
    language: undefined,
    history: undefined,
    engineReply: undefined,
    replySource: undefined,
    reply: undefined,
    contact: undefined,
    agentHandoff: undefined,
    questionId: undefined,
    answerId: undefined,
    response: undefined,
  };
  return ctx;
}

/** The mutable part of the context: what a step may return. */
export type ContextPatch = Partial<Omit<ChatContext, 'request' | 'traceId' | 'idempotencyKey' | 'deadlineAt' | 'textOut' | 'stopSignal'>>;

/** Reads a member an earlier step must have set; its absence is a defect in the step order. */
export function need<K extends keyof ChatContext>(ctx: Readonly<ChatContext>, key: K): NonNullable<ChatContext[K]> {
  const value = ctx[key];
  if (value === undefined || value === null) {
    throw new Error(`pipeline order: '${String(key)}' is not set yet`);
  }
  return value as NonNullable<ChatContext[K]>;
}
