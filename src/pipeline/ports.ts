import type { RetrievalType } from '../../schemas/chat-response.schema.ts';
import type { EngineReply, EngineRequest } from '../../schemas/engine.schema.ts';
import type {
  CreateServiceMessageInput,
  ServiceConversation,
  ServiceMessage,
  UpdateServiceConversationInput,
} from '../../schemas/graphql.schema.ts';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import type { FloorPlan, TimeSlot, Unit } from '../../schemas/property-api.schema.ts';
import type { SessionCache } from './session-cache-port.ts';

/*
 * The ports the steps depend on. Concrete clients (src/clients) implement them; tests hand in fakes.
 * A failing call throws DownstreamError (src/errors.ts).
 *
 * `deadlineAt` (docs/api.md#deadline): the instant, on the `performance.now()` clock, by which the chat
 * must be answered (`ChatContext.deadlineAt`). A call gets the smaller of its own timeout and the
 * time left; with nothing left it is not made and throws DownstreamError.
 */

/**
 * Reply text as a streaming engine writes it (docs/api.md#streamed-replies), before its answer is complete.
 * `announced` is what the engine said about the reply before its text (undefined when it said
 * nothing): the service releases text early only when it knows the formatting rule.
 */
export type EngineTextListener = (delta: string, announced: EngineAnnouncement | undefined) => void;

/** Members of the final answer an engine may name on its first streamed event; the answer must agree. */
export interface EngineAnnouncement {
  readonly retrieval_type: RetrievalType;
  /** Absent means English, as for the final answer. */
  readonly language: string | undefined;
}

export interface EngineClient {
  /**
   * Without `onText` the engine is asked for JSON. With it, the engine may stream; the answer is
   * the same complete reply either way, and `onText` only sees text before it is complete. `stop`
   * aborts the call (a stopped streamed reply): it then throws.
   */
  query(request: EngineRequest, deadlineAt?: number, onText?: EngineTextListener, stop?: AbortSignal): Promise<EngineReply>;
}

/**
 * Where the reply text goes as it becomes final, for a caller that asked for a stream. What is
 * released is the start of the `response` the chat will deliver; the route writes the rest.
 */
export interface ReplyTextSink {
  release(text: string): void;
}

export interface ConversationStore {
  /** `callerApiKey` is the request's graphql_api_key, sent only to the GraphQL API. */
  createMessage(input: CreateServiceMessageInput, callerApiKey: string, deadlineAt?: number): Promise<ServiceMessage>;
  updateConversation(input: UpdateServiceConversationInput, callerApiKey: string, deadlineAt?: number): Promise<ServiceConversation>;
}

/** docs/operations.md#handoffs-and-dead-letters: the durable handoff outbox (src/outbox/), as the startHandoff step sees it. */
export interface HandoffOutbox {
  /**
   * Resolves once the handoff is durably written (delivery follows in the background, never
   * delaying the reply); rejects with OutboxUnavailableError when no outbox can take it.
   */
  enqueue(handoff: Handoff): Promise<void>;
}

export interface Translator {
  translate(text: string, source: string, target: string, deadlineAt?: number): Promise<string>;
}

export interface PropertyApi {
  units(propertyId: string, deadlineAt?: number): Promise<Unit[]>;
  floorPlans(propertyId: string, deadlineAt?: number): Promise<FloorPlan[]>;
  tourSlots(propertyId: string, deadlineAt?: number): Promise<TimeSlot[]>;
  neighborhoodKeywords(propertyId: string, query: string, deadlineAt?: number): Promise<string[]>;
}

export interface Clock {
  /** Wall-clock epoch milliseconds (for cache ages and timestamps, never for durations). */
  now(): number;
}

/** The pino subset the steps use; the object comes first, and never holds personal data. */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface Settings {
  /** ISO region for phone numbers written without a country code. */
  readonly defaultPhoneRegion: string;
  /** IANA zone in which tour times are told to visitors. */
  readonly propertyTimeZone: string;
  readonly cacheRetrieveThreshold: number;
}

export interface Deps {
  readonly engine: EngineClient;
  readonly store: ConversationStore;
  readonly handoff: HandoffOutbox;
  readonly translator: Translator;
  readonly propertyApi: PropertyApi;
  /** Session history and reusable replies (in-process or Redis); never throws. */
  readonly cache: SessionCache;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: Settings;
  /** A fresh UUID (injected so tests can pin it). */
  readonly newId: () => string;
}
