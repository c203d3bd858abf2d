import type { EngineReply, EngineRequest } from '../../schemas/engine.schema.ts';
import type {
  CreateServiceMessageInput,
  ServiceMessage,
  UpdateServiceConversationInput,
} from '../../schemas/graphql.schema.ts';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { createMemoryCache } from '../../src/cache/memory-cache.ts';
import type { SessionCache } from '../../src/cache/session-cache.ts';
import type { Deps, PropertyApi } from '../../src/pipeline/ports.ts';
import { engineReply } from '../helpers/fixtures.ts';

/** The id every step gets from `deps.newId()`: pinned so tests can assert where it ends up. */
export const FIXED_ID = '0b6f3c2a-7d41-4e8a-9c35-2f1e0d9b8a76';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Everything the steps asked of their dependencies, in call order. */
export interface Calls {
  readonly engine: EngineRequest[];
  readonly createMessage: { input: CreateServiceMessageInput; callerApiKey: string; stored: ServiceMessage }[];
  readonly updateConversation: { input: UpdateServiceConversationInput; callerApiKey: string }[];
  readonly enqueued: Handoff[];
  readonly translate: { text: string; source: string; target: string }[];
  readonly logs: { level: LogLevel; obj: object; msg: string }[];
}

export interface FakeOptions {
  /** What the engine answers; an Error is thrown instead. */
  engine?: EngineReply | Error;
  /** Translator behaviour; by default it tags the text so a translation is recognisable. */
  translate?: (text: string, source: string, target: string) => Promise<string>;
  defaultPhoneRegion?: string;
  /** Property API answers; each missing call answers an empty list. */
  propertyApi?: Partial<PropertyApi>;
  /** A session cache; by default a real in-process cache on the fake clock. */
  cache?: SessionCache;
  /** An Error: the handoff outbox cannot be written (enqueue rejects with it). */
  outbox?: Error;
}

/** Translation a test can recognise without a real service. */
export const fakeTranslation = (text: string, target: string): string => `[${target}] ${text}`;

/** Deps whose every port records its calls; nothing leaves the process and nothing is printed. */
export function fakeDeps(options: FakeOptions = {}): { deps: Deps; calls: Calls } {
  const calls: Calls = { engine: [], createMessage: [], updateConversation: [], enqueued: [], translate: [], logs: [] };
  const log = (level: LogLevel) => (obj: object, msg: string) => {
    calls.logs.push({ level, obj, msg });
  };
  const translate = options.translate ?? (async (text: string, _source: string, target: string) => fakeTranslation(text, target));
  const deps: Deps = {
    engine: {
      async query(request) {
        calls.engine.push(request);
        const answer = options.engine ?? engineReply();
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    store: {
      async createMessage(input, callerApiKey) {
        // Digits, different for each call, like the GraphQL API's ids.
        const stored: ServiceMessage = {
          id: String(9000 + calls.createMessage.length),
          conversationId: input.conversationId,
          role: input.role,
          content: input.content,
          createdAt: '2026-01-01T00:00:00.000Z',
        };
        calls.createMessage.push({ input, callerApiKey, stored });
        return stored;
      },
      async updateConversation(input, callerApiKey) {
        calls.updateConversation.push({ input, callerApiKey });
        return {
          id: input.conversationId,
          contactName: input.contactName ?? null,
          contactPhone: input.contactPhone ?? null,
          contactEmail: input.contactEmail ?? null,
          lastIntent: input.lastIntent ?? null,
          agentHandoff: input.agentHandoff ?? null,
          updatedAt: '2026-01-01T00:00:00.000Z',
        };
      },
    },
    handoff: {
      async enqueue(handoff) {
        if (options.outbox instanceof Error) throw options.outbox;
        calls.enqueued.push(handoff);
      },
    },
    translator: {
      async translate(text, source, target) {
        calls.translate.push({ text, source, target });
        return translate(text, source, target);
      },
    },
    propertyApi: {
      units: async () => [],
      floorPlans: async () => [],
      tourSlots: async () => [],
      neighborhoodKeywords: async () => [],
      ...options.propertyApi,
    },
    cache: options.cache ?? createMemoryCache({ maxSessions: 100, ttlSeconds: 7200, now: () => Date.UTC(2026, 0, 1) }),
    clock: { now: () => Date.UTC(2026, 0, 1) },
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    settings: { defaultPhoneRegion: options.defaultPhoneRegion ?? 'US', propertyTimeZone: 'UTC', cacheRetrieveThreshold: 0.98 },
    newId: () => FIXED_ID,
  };
  return { deps, calls };
}
