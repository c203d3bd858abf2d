import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_INTENT,
  ATTR_REPLY_SOURCE,
  ATTR_RETRIEVAL_TYPE,
  ATTR_SUB_INTENT,
} from '../attributes.ts';
import { CACHE_HIT_STEP, ENGINE_STEP, STEPS_WITHOUT_CALLS } from '../../../schemas/chat-steps.ts';
import { recordError } from './span.ts';
import { spanTime } from './span-clock.ts';
import { TimedSpan } from './timed-span.ts';
import { spanSinkOf } from '../tracing.ts';

// The engine step and its cache-hit name are declared with the steps (schemas/chat-steps.ts).
export { CACHE_HIT_STEP, ENGINE_STEP } from '../../../schemas/chat-steps.ts';

/** What the step spans read from the chat context (kept structural: telemetry knows no pipeline types). */
export interface StepSpanSource {
  readonly request: { readonly conversation_id: string };
  readonly message?: string | undefined;
  readonly engineReply?: { readonly intent: string; readonly sub_intent: string; readonly retrieval_type: string } | undefined;
  readonly replySource?: string | undefined;
}

export interface StepSpanOptions {
  /** TRACE_MESSAGE_TEXT=true: the visitor's message goes on the askEngine span. Off by default. */
  readonly recordMessageText?: boolean;
}

/** Only with TRACE_MESSAGE_TEXT=true: the visitor's message, on the step that sends it to the engine. */
function engineStart(source: StepSpanSource, options: StepSpanOptions): Attributes {
  const attributes: Attributes = {};
  if (options.recordMessageText === true && source.message !== undefined) {
    attributes[ATTR_GEN_AI_INPUT_MESSAGES] = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: source.message }] }]);
  }
  return attributes;
}

/** Set after the answer: which intent the engine (or the cache) found, and how the reply is built. */
function engineResult(span: Span, patch: unknown, source: StepSpanSource): void {
  const fromPatch = (patch ?? {}) as Partial<StepSpanSource>;
  const reply = fromPatch.engineReply ?? source.engineReply;
  const replySource = fromPatch.replySource ?? source.replySource;
  if (reply !== undefined) {
    span.setAttributes({ [ATTR_INTENT]: reply.intent, [ATTR_SUB_INTENT]: reply.sub_intent, [ATTR_RETRIEVAL_TYPE]: reply.retrieval_type });
  }
  if (replySource !== undefined) span.setAttribute(ATTR_REPLY_SOURCE, replySource);
}

/** A step's span, active while the step runs (same shape as the runner's StepScope). */
class ActiveStep {
  readonly span: Span;
  readonly #context: Context;
  constructor(span: Span, parent: Context) {
    this.span = span;
    this.#context = trace.setSpan(parent, span);
  }
  run<T>(body: () => T): T {
    return context.with(this.#context, body);
  }
}

interface StepTimingLike {
  readonly name: string;
  readonly ok: boolean;
}

/** Same shape as the runner's StepObserver. */
export interface StepSpans {
  enter(name: string, startedAt: number): ActiveStep | undefined;
  leave(timing: StepTimingLike, startedAt: number, endedAt: number, scope: ActiveStep | undefined, result: unknown): void;
}

/**
 * A child span of `parent` (the request's SERVER span) per pipeline step, named as the step, with
 * the start and end times of the step's latency figure. Only a step that calls other parties has
 * its span active while it runs (so the spans of its calls are its children); the others get theirs
 * built when they end, with no context switch. When `parent` records nothing (tracing disabled, or a
 * trace not sampled) there is no observer at all (undefined): each span would be a non-recording
 * child, and the runner then has nobody to tell about each step's start and end. The spans
 * go straight to the span processors (timed-span.ts) when the tracer was made by createTracing.
 * `source` is the request's context, read when the engine step starts and ends.
 */
export function stepSpans(tracer: Tracer, parent: Span, source: StepSpanSource, options: StepSpanOptions = {}): StepSpans | undefined {
  if (!parent.isRecording()) return undefined;
  const parentContext = trace.setSpan(ROOT_CONTEXT, parent);
  const sink = spanSinkOf(tracer);
  const start = (name: string, startedAt: number): Span =>
    sink === undefined
      ? tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: spanTime(startedAt) }, parentContext)
      : new TimedSpan(sink, name, parent.spanContext(), spanTime(startedAt));
  return {
    enter(name, startedAt) {
      // A reply reused from the cache: the engine step calls nobody (its span is made when it ends).
      if (STEPS_WITHOUT_CALLS.has(name) || (name === ENGINE_STEP && source.replySource === 'cache')) return undefined;
      const span = start(name, startedAt);
      if (name === ENGINE_STEP) span.setAttributes(engineStart(source, options));
      return new ActiveStep(span, parentContext);
    },
    leave(timing, startedAt, endedAt, scope, result) {
      const cacheHit = timing.name === ENGINE_STEP && source.replySource === 'cache';
      const span = scope?.span ?? start(cacheHit ? CACHE_HIT_STEP : timing.name, startedAt);
      if (!timing.ok) recordError(span, result);
      else if (timing.name === ENGINE_STEP) engineResult(span, result, source);
      span.end(spanTime(endedAt));
    },
  };
}

/**
 * The span of a figure of latency.steps measured outside the pipeline (`waitForTurn`: the wait for
 * the session's turn, before the steps), a child of the request's SERVER span with the figure's own
 * start and end times, so that every figure of latency.steps has its span. Nothing when `parent`
 * records nothing.
 */
export function recordTimedSpan(tracer: Tracer, parent: Span, timing: StepTimingLike, startedAt: number, endedAt: number): void {
  if (!parent.isRecording()) return;
  const sink = spanSinkOf(tracer);
  const span =
    sink === undefined
      ? tracer.startSpan(timing.name, { kind: SpanKind.INTERNAL, startTime: spanTime(startedAt) }, trace.setSpan(ROOT_CONTEXT, parent))
      : new TimedSpan(sink, timing.name, parent.spanContext(), spanTime(startedAt));
  if (!timing.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: 'deadline passed while waiting' });
  span.end(spanTime(endedAt));
}
