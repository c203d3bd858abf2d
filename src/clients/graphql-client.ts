import { setTimeout as sleep } from 'node:timers/promises';
import { ClientError, GraphQLClient } from 'graphql-request';
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import {
  ServiceConversationSchema,
  ServiceMessageSchema,
  type CreateServiceMessageInput,
  type ServiceConversation,
  type ServiceMessage,
  type UpdateServiceConversationInput,
} from '../../schemas/graphql.schema.ts';
import { DownstreamError } from '../errors.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';

const CREATE_MESSAGE = /* GraphQL */ `
  mutation CreateServiceMessage($input: CreateServiceMessageInput!) {
    createServiceMessage(input: $input) { id conversationId role content createdAt }
  }`;

const UPDATE_CONVERSATION = /* GraphQL */ `
  mutation UpdateServiceConversation($input: UpdateServiceConversationInput!) {
    updateServiceConversation(input: $input) { id contactName contactPhone contactEmail lastIntent agentHandoff updatedAt }
  }`;

const createReply = TypeCompiler.Compile(Type.Object({ createServiceMessage: ServiceMessageSchema }));
const updateReply = TypeCompiler.Compile(Type.Object({ updateServiceConversation: ServiceConversationSchema }));

export interface GraphqlTarget {
  readonly url: string;
  readonly timeoutMs: number;
  readonly dispatcher: Dispatcher;
  /** Per-environment secrets (CONTRACTS 3.4); sent only here. */
  readonly authorization: string | undefined;
  readonly apiKey: string | undefined;
  /** Total tries per mutation, including the first. Safe to retry: clientMessageKey makes it idempotent. */
  readonly attempts?: number;
  readonly backoffMs?: number;
}

/** A reason that is safe to log: never the query, variables or headers (ClientError.message holds them). */
function describe(err: unknown): string {
  if (err instanceof DownstreamError) return err.message;
  if (err instanceof ClientError) {
    const status = err.response.status;
    return status >= 400 ? `answered ${status}` : `answered ${err.response.errors?.length ?? 0} GraphQL error(s)`;
  }
  const name = (err as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : 'unreachable';
}

/** CONTRACTS 3.4: the GraphQL API, through graphql-request over a keep-alive undici pool. */
export function createGraphqlClient(target: GraphqlTarget) {
  const attempts = Math.max(1, target.attempts ?? 3);
  const backoffMs = target.backoffMs ?? 100;
  const fixedHeaders: Record<string, string> = {};
  if (target.authorization !== undefined) fixedHeaders['authorization'] = target.authorization;
  if (target.apiKey !== undefined) fixedHeaders['x-api-key'] = target.apiKey;

  const client = new GraphQLClient(target.url, {
    fetch: ((input: string, init: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher: target.dispatcher })) as unknown as typeof fetch,
  });

  async function mutate<S extends TSchema>(document: string, input: object, callerApiKey: string, check: TypeCheck<S>): Promise<Static<S>> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const data = await client.request<unknown>({
          document,
          variables: { input },
          requestHeaders: withTraceHeaders({ ...fixedHeaders, 'x-graphql-api-key': callerApiKey }),
          signal: AbortSignal.timeout(target.timeoutMs),
        });
        if (!check.Check(data)) throw new DownstreamError('graphql', 'answer out of contract');
        return data;
      } catch (err) {
        lastError = err;
        if (attempt < attempts) await sleep(backoffMs * 2 ** (attempt - 1));
      }
    }
    throw new DownstreamError('graphql', `${describe(lastError)} after ${attempts} attempt(s)`);
  }

  return {
    async createMessage(input: CreateServiceMessageInput, callerApiKey: string): Promise<ServiceMessage> {
      return (await mutate(CREATE_MESSAGE, input, callerApiKey, createReply)).createServiceMessage;
    },
    async updateConversation(input: UpdateServiceConversationInput, callerApiKey: string): Promise<ServiceConversation> {
      return (await mutate(UPDATE_CONVERSATION, input, callerApiKey, updateReply)).updateServiceConversation;
    },
  };
}
