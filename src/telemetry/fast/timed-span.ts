import { randomBytes } from 'node:crypto';
import { SpanKind, SpanStatusCode, type Attributes, type AttributeValue, type Exception, type HrTime, type Link, type Span, type SpanContext, type SpanStatus, type TimeInput } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, Sampler, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-node';
import { spanNow } from './span-clock.ts';

/*
 * A child span of a recording span of this process (a pipeline step under the request's SERVER
 * span, a downstream call under its step), with the times the caller gives, handed straight to the
 * span processors when it ends. The SDK's own span path, built for spans of unknown parentage and
 * timing, costs several microseconds per span (sampler, id and attribute validation, clock reads);
 * a child of a recording local span shares its sampling decision under every standard sampler. It
 * is exported exactly as an SDK span is (it is a ReadableSpan, with the provider's resource and scope).
 */

/** Where spans of one tracer provider go: made by createTracing (tracing.ts). */
export interface SpanSink {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  readonly processors: readonly SpanProcessor[];
  /**
   * Whether any processor receives spans. When none does (no exporter configured), no span is
   * built: trace ids are still made, continued and propagated, with the flags `sampler` decides.
   */
  readonly recording: boolean;
  readonly sampler: Sampler;
  /** The sampler never records a child of a parent that is not sampled (disabled, or parentbased_*). */
  readonly followsParent: boolean;
}

/*
 * Span ids: 8 random bytes each, taken from a pool of hex filled 512 ids at a time, so that an id is
 * a substring, not a Buffer and a hex conversion of its own. Same randomness as the SDK's ids
 * (crypto-quality here, Math.random there); an all-zero id (invalid) is never handed out.
 */
const POOL_IDS = 512;
let pool = '';
let next = POOL_IDS;
export function newSpanId(): string {
  if (next === POOL_IDS) {
    pool = randomBytes(POOL_IDS * 8).toString('hex');
    next = 0;
  }
  const id = pool.slice(next * 16, next * 16 + 16);
  next += 1;
  return id === '0000000000000000' ? newSpanId() : id;
}

/** A trace id: 16 random bytes in hex, from the same pool (never all zero: each half is non-zero). */
export function newTraceId(): string {
  return newSpanId() + newSpanId();
}

const toHrTime = (time: TimeInput | undefined): HrTime => {
  if (time === undefined) return spanNow();
  if (Array.isArray(time)) return time as HrTime;
  return millisToHrTime(time instanceof Date ? time.getTime() : time);
};

/*
 * Most spans end with no link, no event and no status: they share these (frozen, read by the
 * processors and exporters only) until their first write, instead of three objects each.
 */
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const NO_EVENTS: TimedEvent[] = Object.freeze([]) as unknown as TimedEvent[];
const UNSET_STATUS: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
const NOT_ENDED: HrTime = Object.freeze([0, 0]) as unknown as HrTime;

export class TimedSpan implements Span, ReadableSpan {
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext;
  readonly startTime: HrTime;
  endTime: HrTime = NOT_ENDED;
  duration: HrTime = NOT_ENDED;
  name: string;
  status: SpanStatus = UNSET_STATUS;
  readonly attributes: Attributes = {};
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  ended = false;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  readonly #context: SpanContext;
  readonly #sink: SpanSink;

  /** A child of `parent` (which must be recording), started at `startTime` (see span-clock.ts). */
  constructor(sink: SpanSink, name: string, parent: SpanContext, startTime: HrTime, kind: SpanKind = SpanKind.INTERNAL) {
    this.#sink = sink;
    this.kind = kind;
    this.resource = sink.resource;
    this.instrumentationScope = sink.scope;
    this.name = name;
    this.parentSpanContext = parent;
    this.#context = {
      traceId: parent.traceId,
      spanId: newSpanId(),
      traceFlags: parent.traceFlags,
      ...(parent.traceState !== undefined && { traceState: parent.traceState }),
    };
    this.startTime = startTime;
  }

  spanContext(): SpanContext {
    return this.#context;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (!this.ended && value != null && key !== '') this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    if (this.ended) return this;
    for (const key in attributes) {
      const value = attributes[key];
      if (value != null && key !== '') this.attributes[key] = value;
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const isTime = typeof attributesOrTime === 'number' || Array.isArray(attributesOrTime) || attributesOrTime instanceof Date;
    const attributes = isTime ? {} : { ...(attributesOrTime as Attributes | undefined) };
    if (this.events === NO_EVENTS) this.events = [];
    this.events.push({ name, attributes, time: toHrTime(isTime ? (attributesOrTime as TimeInput) : time), droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links === NO_LINKS) this.links = [];
    this.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  /** As the SDK: UNSET changes nothing, OK is final, a message is kept only on ERROR. */
  setStatus(status: SpanStatus): this {
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  /** As the SDK: an `exception` event with exception.type / .message (and .stacktrace when given). */
  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      if (exception.code !== undefined) attributes['exception.type'] = String(exception.code);
      else if (exception.name !== undefined) attributes['exception.type'] = exception.name;
      if (exception.message !== undefined) attributes['exception.message'] = exception.message;
      if (exception.stack !== undefined) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] !== undefined || attributes['exception.message'] !== undefined) this.addEvent('exception', attributes, time);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  /** Ends at `endTime` (span-clock.ts) and hands the span to the processors. A second end is ignored. */
  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.endTime = toHrTime(endTime);
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    if (this.duration[0] < 0) {
      this.endTime = this.startTime;
      this.duration = [0, 0];
    }
    this.ended = true;
    for (const processor of this.#sink.processors) processor.onEnd(this);
  }
}
