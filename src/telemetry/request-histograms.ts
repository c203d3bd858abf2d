/**
 * The hot-path latency histograms (fast/bound-histogram.ts): each request by route, status, mode and
 * caller; each pipeline step; each HTTP attempt to a party (and its failures by reason). Each label
 * set is bound to its histogram child once, on first use, and kept for the process's life (steps,
 * parties, routes and statuses are a small fixed set).
 */
import { Counter, type Registry } from 'prom-client';
import { BoundHistogram, type HistogramChild } from './fast/bound-histogram.ts';

// Seconds. Requests and downstream calls: from 5 ms to the 30 s engine timeout.
export const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Most steps are pure functions taking microseconds; the slow ones wait on a downstream.
const STEP_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A chat's answer: one JSON body, or a UI message stream. */
export type AnswerMode = 'json' | 'stream';

/** Where the downstream clients report each HTTP attempt (see src/telemetry/fast/client-span.ts). */
export interface DownstreamMetrics {
  /** `failure` is a bounded reason (`timeout`, `unreachable`, `status_503`, ...), undefined on success. */
  observeDownstream(party: string, seconds: number, failure: string | undefined): void;
  /**
   * The engine's answer began (its whole JSON answer, or the first event of a streamed one), or the
   * call failed first: seconds from the call's start. Optional: a test's fake may leave it out.
   */
  observeEngineFirstEvent?(seconds: number): void;
}

/** The latency histograms fed on every request, step and party call. */
export interface RequestHistograms extends DownstreamMetrics {
  /**
   * `route` is the route template (`/chat_adapter`), or `unmatched`: never a raw URL. `caller` is
   * the CALLER_API_KEYS entry's name (a handful of values); the label is absent without one.
   * `statusCode` is the answer's outcome (src/http/request-outcome.ts): a streamed chat that
   * failed counts as the status a JSON caller would have got.
   */
  observeRequest(method: string, route: string, statusCode: number, seconds: number, caller?: string, mode?: AnswerMode, traceId?: string): void;
  /** `traceId` (of a recorded trace): kept as the bucket's exemplar. */
  observeStep(step: string, seconds: number, ok: boolean, traceId?: string): void;
}

/** The child of `name` under outcome `ok` (0) or `error` (1), bound on first use. */
function boundChild(histogram: BoundHistogram, byOutcome: Map<string, HistogramChild>[], outcome: number, name: string): HistogramChild {
  let child = byOutcome[outcome]!.get(name);
  if (child === undefined) {
    child = histogram.child(name, outcome === 0 ? 'ok' : 'error');
    byOutcome[outcome]!.set(name, child);
  }
  return child;
}

export function requestHistograms(registers: Registry[]): RequestHistograms {
  const requestDuration = new BoundHistogram({
    name: 'chat_adapter_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, outcome status code (a streamed chat that failed counts as its error status, one whose caller left as 499), mode (json, stream) and authenticated caller.',
    labelNames: ['method', 'route', 'status_code', 'mode', 'caller'],
    buckets: CALL_BUCKETS,
    registers,
  });
  const stepDuration = new BoundHistogram({
    name: 'chat_adapter_step_duration_seconds',
    help: 'Time each pipeline step took, by step and outcome (ok, error).',
    labelNames: ['step', 'outcome'],
    buckets: STEP_BUCKETS,
    registers,
  });
  const downstreamDuration = new BoundHistogram({
    name: 'chat_adapter_downstream_duration_seconds',
    help: 'Time of each HTTP attempt to a downstream party (retries count separately), by party and outcome.',
    labelNames: ['party', 'outcome'],
    buckets: CALL_BUCKETS,
    registers,
  });
  const downstreamErrors = new Counter({
    name: 'chat_adapter_downstream_errors_total',
    help: 'Failed HTTP attempts to a downstream party, by party and reason.',
    labelNames: ['party', 'reason'] as const,
    registers,
  });
  const requestChildren = new Map<string, HistogramChild>();
  const stepChildren = [new Map<string, HistogramChild>(), new Map<string, HistogramChild>()];
  const downstreamChildren = [new Map<string, HistogramChild>(), new Map<string, HistogramChild>()];

  return {
    observeRequest(method, route, statusCode, seconds, caller, mode = 'json', traceId) {
      const key = `${method} ${statusCode} ${mode} ${route} ${caller ?? ''}`;
      let child = requestChildren.get(key);
      if (child === undefined) {
        child = requestDuration.child(method, route, String(statusCode), mode, caller);
        requestChildren.set(key, child);
      }
      child.observe(seconds, traceId);
    },
    observeStep(step, seconds, ok, traceId) {
      boundChild(stepDuration, stepChildren, ok ? 0 : 1, step).observe(seconds, traceId);
    },
    observeDownstream(party, seconds, failure) {
      boundChild(downstreamDuration, downstreamChildren, failure === undefined ? 0 : 1, party).observe(seconds);
      if (failure !== undefined) downstreamErrors.inc({ party, reason: failure });
    },
  };
}
