import type { Dispatcher } from 'undici';
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
import type { Span } from '@opentelemetry/api';
import { attemptTimer, clientSpan, setErrorType, type ClientCall, type OutboundTelemetry } from '../telemetry/fast/client-span.ts';
import { callError, failureReason, is2xx, isRejectedBeforeSending, timeoutOrUnreachable } from './call-failure.ts';
import { callLimit, startCallTimer, type CallLimit } from './call-timer.ts';
import { GraphqlAnswerError, graphqlAttempts } from './graphql-attempt.ts';
import { PartyPoolBusyError, type PartySlots } from './party-slots.ts';
import { withRetries, type RetryPolicy } from './retry.ts';

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
  /** The GraphQL API's pool (party-pool.ts). */
  readonly dispatcher: Dispatcher;
  /** Per-environment secrets (docs/contracts.md#graphql-store); sent only here. */
  readonly authorization: string | undefined;
  readonly apiKey: string | undefined;
  /** Tries per mutation and the backoff between them. Safe to retry: clientMessageKey makes it idempotent. */
  readonly retry?: Partial<RetryPolicy>;
  /** One CLIENT span per mutation (retries inside it); each HTTP attempt is timed for the metrics. */
  readonly telemetry?: OutboundTelemetry;
  /** The bounded wait for a connection of its pool (party-slots.ts); none = undici's own queue. */
  readonly slots?: PartySlots;
}

/** 3 tries, the retries 0-100 ms and 0-200 ms after a failure (full jitter): short next to a chat's deadline. */
const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 100, capMs: 1_000 };

/** A reason that is safe to log: never the query, variables or headers (ClientError.message holds them). */
function describe(err: unknown, limit: CallLimit | undefined): string {
  if (err instanceof DownstreamError) return err.reason;
  if (err instanceof GraphqlAnswerError) return err.message;
  return timeoutOrUnreachable(err, limit);
}

/**
 * Every failure of the API is retried; a request the service itself could not build or send is
 * not, nor one refused for a busy pool (its wait already took its share of the deadline).
 */
const retryable = (err: unknown) => !isRejectedBeforeSending(err) && !(err instanceof PartyPoolBusyError);

/** One mutation to send: what, for whom, how its answer is checked, until when. */
interface MutationCall<S extends TSchema> {
  readonly mutation: Mutation;
  readonly input: object;
  readonly callerApiKey: string;
  readonly check: TypeCheck<S>;
  readonly deadlineAt: number | undefined;
}

/** What the tries of one mutation leave for its failure: how many, the last reason, the last try's limit. */
interface MutationTries {
  count: number;
  lastFailure: string;
  limit: CallLimit | undefined;
}

type Send = ReturnType<typeof graphqlAttempts>;

/** One HTTP try of a mutation: timed for the metrics, its status on the span, a failure as an event. */
async function attemptMutation<S extends TSchema>(target: GraphqlTarget, send: Send, span: Span, call: MutationCall<S>, tries: MutationTries, n: number): Promise<Static<S>> {
  tries.limit = callLimit('graphql', target.timeoutMs, call.deadlineAt);
  const done = attemptTimer(target.telemetry, 'graphql');
  const timer = startCallTimer(tries.limit);
  let status: number | undefined;
  const onStatus = (answered: number) => {
    status = answered;
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, answered);
  };
  try {
    const data = await send({ document: call.mutation.document, variables: { input: call.input }, callerApiKey: call.callerApiKey, signal: timer.signal, onStatus });
    if (!call.check.Check(data)) throw new DownstreamError('graphql', 'answer out of contract', status === undefined ? {} : { status });
    done(undefined);
    return data;
  } catch (err) {
    tries.lastFailure = err instanceof GraphqlAnswerError && is2xx(err.status) ? 'graphql_error' : failureReason(err, status, is2xx);
    done(tries.lastFailure);
    span.addEvent('attempt failed', { attempt: n, reason: tries.lastFailure });
    throw err;
  } finally {
    timer.clear();
  }
}

/** The error a mutation fails with once its tries are over, its type on the span. */
function mutationFailure(span: Span, tries: MutationTries, err: unknown): unknown {
  if (err instanceof PartyPoolBusyError) {
    setErrorType(span, 'pool_busy');
    return err;
  }
  setErrorType(span, tries.lastFailure);
  if (isRejectedBeforeSending(err)) return callError('graphql', err);
  return new DownstreamError('graphql', `${describe(err, tries.limit)} after ${tries.count} attempt(s)`, { cause: err });
}

/** docs/contracts.md#graphql-store: the GraphQL API, a JSON POST per attempt over the party's keep-alive undici pool. */
export function createGraphqlClient(target: GraphqlTarget) {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...target.retry };
  const headers: Record<string, string> = {};
  if (target.authorization !== undefined) headers['authorization'] = target.authorization;
  if (target.apiKey !== undefined) headers['x-api-key'] = target.apiKey;
  const send = graphqlAttempts({ url: target.url, dispatcher: target.dispatcher, headers });
  // What a mutation's span says is the same for every call: built once.
  const spanCall = (mutation: Mutation): ClientCall => ({
    party: 'graphql',
    method: 'POST',
    baseUrl: target.url,
    path: '',
    spanName: `mutation ${mutation.name}`,
    attributes: { [ATTR_GRAPHQL_OPERATION_TYPE]: 'mutation', [ATTR_GRAPHQL_OPERATION_NAME]: mutation.name },
  });
  const createSpan = spanCall(CREATE_MESSAGE);
  const updateSpan = spanCall(UPDATE_CONVERSATION);

  /**
   * One span per mutation, not per attempt: the trace shows the logical write, its total time
   * (backoff included) and `chat_adapter.attempts`; each failed try is an `attempt failed` event.
   * The metrics count every HTTP attempt, so a flaky API shows there even when a retry succeeds.
   * Every try gets at most the time the chat has left, and no retry starts past its deadline.
   */
  async function mutate<S extends TSchema>(spanOf: ClientCall, call: MutationCall<S>): Promise<Static<S>> {
    callLimit('graphql', target.timeoutMs, call.deadlineAt); // no time left: no call, no span
    return clientSpan(target.telemetry, spanOf, async (span) => {
      const tries: MutationTries = { count: 0, lastFailure: 'unreachable', limit: undefined };
      const tryOnce = async (n: number): Promise<Static<S>> => {
        tries.count = n;
        span.setAttribute(ATTR_ATTEMPTS, n);
        // A connection within the try's share of its time (party-slots.ts), or a 503 at once.
        const release = await target.slots?.acquire(target.timeoutMs, call.deadlineAt);
        try {
          return await attemptMutation(target, send, span, call, tries, n);
        } finally {
          release?.();
        }
      };
      try {
        return await withRetries(tryOnce, { policy, deadlineAt: call.deadlineAt, retryable });
      } catch (err) {
        throw mutationFailure(span, tries, err);
      }
    });
  }

  return {
    async createMessage(input: CreateServiceMessageInput, callerApiKey: string, deadlineAt?: number): Promise<ServiceMessage> {
      return (await mutate(createSpan, { mutation: CREATE_MESSAGE, input, callerApiKey, check: createReply, deadlineAt })).createServiceMessage;
    },
    async updateConversation(input: UpdateServiceConversationInput, callerApiKey: string, deadlineAt?: number): Promise<ServiceConversation> {
      return (await mutate(updateSpan, { mutation: UPDATE_CONVERSATION, input, callerApiKey, check: updateReply, deadlineAt })).updateServiceConversation;
    },
  };
}
