/**
 * The chat's steps, declared once: their order, whether each calls another party, and which latency
 * member of docs/api.md#chat-response its time counts towards. Everything that names the steps is
 * derived from this list: the pipeline (steps/chat-pipeline.ts maps each name to its function), the
 * names `latency.steps` may hold (chat-response.schema.ts), the latency members
 * (src/pipeline/latency.ts) and which step spans are active while their step runs
 * (src/telemetry/fast/step-span.ts). steps/README.md's table is checked against it by a test.
 *
 * It lives with the schemas because the names are part of the response's shape, and the schemas
 * are the one folder every other one may import.
 */

/** The latency members (besides `chat_adapter_latency`, the whole request) that add up step times. */
export type LatencyMember = 'service_engine_latency' | 'extract_and_update_contact_latency' | 'create_message_latency';

export interface ChatStepDeclaration {
  /** The step's function name: its name in `latency.steps`, `Server-Timing`, the log line and the span. */
  readonly name: string;
  /**
   * True when the step calls another party over the network (engine, GraphQL API, translate,
   * property API, handoff outbox): its span is active while it runs, so that the calls' spans are
   * its children. Session-cache reads and writes are not traced calls.
   */
  readonly callsParty: boolean;
  /** The latency member its time counts towards, if any. */
  readonly latency?: LatencyMember;
}

/** Timed before the steps, outside the pipeline: the wait for the session's turn. */
export const WAIT_FOR_TURN_STEP = 'waitForTurn';

/** The step that asks the engine: its span is the GenAI operation. */
export const ENGINE_STEP = 'askEngine';

/** When the session cache answered, the engine step is reported under this name, in its place. */
export const CACHE_HIT_STEP = 'askEngineCacheHit';

/** docs/api.md#what-a-chat-does-in-order, in the order the steps run. */
export const CHAT_STEPS = [
  { name: 'receiveRequest', callsParty: false },
  { name: 'validateRequest', callsParty: false },
  { name: 'loadSession', callsParty: false },
  { name: 'chooseLanguage', callsParty: false },
  { name: 'trimHistory', callsParty: false },
  { name: 'reuseCachedReply', callsParty: false },
  { name: ENGINE_STEP, callsParty: true, latency: 'service_engine_latency' },
  { name: 'answerFromPropertyApi', callsParty: true },
  { name: 'formatReply', callsParty: false },
  { name: 'translateReply', callsParty: true },
  { name: 'extractContact', callsParty: false, latency: 'extract_and_update_contact_latency' },
  { name: 'decideHandoff', callsParty: false },
  { name: 'updateConversation', callsParty: true, latency: 'extract_and_update_contact_latency' },
  { name: 'storeQuestion', callsParty: true, latency: 'create_message_latency' },
  { name: 'startHandoff', callsParty: true },
  { name: 'storeAnswer', callsParty: true, latency: 'create_message_latency' },
  { name: 'rememberTurn', callsParty: false },
  { name: 'assembleResponse', callsParty: false },
] as const satisfies readonly ChatStepDeclaration[];

export type ChatStepName = (typeof CHAT_STEPS)[number]['name'];

/** Every name `latency.steps` may hold. */
export type LatencyStepName = typeof WAIT_FOR_TURN_STEP | ChatStepName | typeof CACHE_HIT_STEP;

/** The names `latency.steps` may hold, in the order they are timed (the cache-hit name in the engine step's place). */
export const LATENCY_STEP_NAMES: readonly LatencyStepName[] = [
  WAIT_FOR_TURN_STEP,
  ...CHAT_STEPS.flatMap(({ name }): LatencyStepName[] => (name === ENGINE_STEP ? [name, CACHE_HIT_STEP] : [name])),
];

/** Which latency member each step's time counts towards, by step name. */
export const LATENCY_MEMBER_OF_STEP: ReadonlyMap<string, LatencyMember> = new Map(
  CHAT_STEPS.flatMap((step): [string, LatencyMember][] => ('latency' in step ? [[step.name, step.latency]] : [])),
);

/** The steps that call no other party (their spans need not be active while they run). */
export const STEPS_WITHOUT_CALLS: ReadonlySet<string> = new Set(CHAT_STEPS.filter((step) => !step.callsParty).map((step) => step.name));
