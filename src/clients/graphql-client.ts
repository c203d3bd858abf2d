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
import {
  ATTR_ATTEMPTS,
  ATTR_GRAPHQL_OPERATION_NAME,
  ATTR_GRAPHQL_OPERATION_TYPE,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
} from '../telemetry/attributes.ts';
import { attemptTimer, clientSpan, failureReason, setErrorType, type OutboundTelemetry } from '../telemetry/client-span.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';

interface Mutation {
  /** The operation name, as in the document (and on the span). */
  readonly name: string;
  readonly document: string;
}

const CREATE_MESSAGE: Mutation = {
  name: 'CreateServiceMessage',
  document: /* GraphQL */ `
  mutation CreateServiceMessage($input: CreateServiceMessageInput!) {
    createServiceMessage(input: $input) { id conversationId role content createdAt }
  }`,
};

const UPDATE_CONVERSATION: Mutation = {
  name: 'UpdateServiceConversation',
  document: /* GraphQL */ `
  mutation UpdateServiceConversation($input: UpdateServiceConversationInput!) {
    updateServiceConversation(input: $input) { id contactName contactPhone contactEmail lastIntent agentHandoff updatedAt }
  }`,
};

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
  /** One CLIENT span per mutation (retries inside it); each HTTP attempt is timed for the metrics. */
  readonly telemetry?: OutboundTelemetry;
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

  const is2xx = (status: number) => status >= 200 && status <= 299;

  /**
   * One span per mutation, not per attempt: the trace shows the logical write, its total time
   * (backoff included) and `chat_adapter.attempts`; each failed try is an `attempt failed` event.
   * The metrics count every HTTP attempt, so a flaky API shows there even when a retry succeeds.
   */
  async function mutate<S extends TSchema>(mutation: Mutation, input: object, callerApiKey: string, check: TypeCheck<S>): Promise<Static<S>> {
    const spanCall = {
      party: 'graphql',
      method: 'POST',
      baseUrl: target.url,
      path: '',
      spanName: `mutation ${mutation.name}`,
      attributes: { [ATTR_GRAPHQL_OPERATION_TYPE]: 'mutation', [ATTR_GRAPHQL_OPERATION_NAME]: mutation.name },
    };
    return clientSpan(target.telemetry, spanCall, async (span) => {
      let lastError: unknown;
      let lastFailure = 'unreachable';
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const done = attemptTimer(target.telemetry, 'graphql');
        let status: number | undefined;
        span.setAttribute(ATTR_ATTEMPTS, attempt);
        try {
          const res = await client.rawRequest<unknown>({
            query: mutation.document,
            variables: { input },
            requestHeaders: withTraceHeaders({ ...fixedHeaders, 'x-graphql-api-key': callerApiKey }),
            signal: AbortSignal.timeout(target.timeoutMs),
          });
          status = res.status;
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
          if (!check.Check(res.data)) throw new DownstreamError('graphql', 'answer out of contract');
          done(undefined);
          return res.data;
        } catch (err) {
          lastError = err;
          if (status === undefined && err instanceof ClientError) {
            status = err.response.status;
            span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
          }
          lastFailure = err instanceof ClientError && is2xx(status ?? 0) ? 'graphql_error' : failureReason(err, status, is2xx);
          done(lastFailure);
          span.addEvent('attempt failed', { attempt, reason: lastFailure });
          if (attempt < attempts) await sleep(backoffMs * 2 ** (attempt - 1));
        }
      }
      setErrorType(span, lastFailure);
      throw new DownstreamError('graphql', `${describe(lastError)} after ${attempts} attempt(s)`);
    });
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
