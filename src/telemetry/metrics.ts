import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BoundHistogram, type HistogramChild } from './bound-histogram.ts';
import { droppedLogLines } from './log-destination.ts';

export type CacheLookupResult = 'hit' | 'miss' | 'error';

/** How a streamed chat ended (docs/api.md#streamed-replies): answered, the caller left first, or an `error` part. */
export type StreamOutcome = 'completed' | 'client_gone' | 'failed' | 'stopped';
const STREAM_OUTCOMES: readonly StreamOutcome[] = ['completed', 'client_gone', 'failed', 'stopped'];

/** Where the downstream clients report each HTTP attempt (see src/telemetry/client-span.ts). */
export interface DownstreamMetrics {
  /** `failure` is a bounded reason (`timeout`, `unreachable`, `status_503`, ...), undefined on success. */
  observeDownstream(party: string, seconds: number, failure: string | undefined): void;
}

/**
 * The service's Prometheus metrics, on a registry of its own (never prom-client's global one), so
 * that several app instances in one process each count only their own traffic.
 */
export interface Metrics extends DownstreamMetrics {
  readonly registry: Registry;
  /** The text exposition for `GET /metrics`. */
  scrape(): Promise<string>;
  /**
   * `route` is the route template (`/chat_adapter`), or `unmatched`: never a raw URL. `caller` is
   * the CALLER_API_KEYS entry's name (a handful of values); the label is absent without one.
   */
  observeRequest(method: string, route: string, statusCode: number, seconds: number, caller?: string): void;
  observeStep(step: string, seconds: number, ok: boolean): void;
  /** For the session cache: one call per lookup. */
  countCacheLookup(result: CacheLookupResult): void;
  /** A streamed chat: from the request's arrival to its first reply text on the wire. */
  observeFirstText(seconds: number): void;
  countStream(outcome: StreamOutcome): void;
  /** The in-process session cache: `count` is read at each scrape into `chat_adapter_cache_sessions`. */
  watchCacheSessions(count: () => number): void;
}

export interface MetricsOptions {
  /** Process metrics (CPU, memory, event loop lag, GC); on by default. */
  readonly processMetrics?: boolean;
}

// Seconds. Requests and downstream calls: from 5 ms to the 30 s engine timeout.
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Most steps are pure functions taking microseconds; the slow ones wait on a downstream.
const STEP_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const requestDuration = new BoundHistogram({
    name: 'chat_adapter_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, status code and authenticated caller.',
    labelNames: ['method', 'route', 'status_code', 'caller'],
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
  const cacheLookups = new Counter({
    name: 'chat_adapter_cache_lookups_total',
    help: 'Session cache: hit or miss once per chat; error once per failed backend read or write (a chat whose read failed is also a miss).',
    labelNames: ['result'] as const,
    registers,
  });
  const firstText = new Histogram({
    name: 'chat_adapter_time_to_first_text_seconds',
    help: 'Streamed chats: time from the request to the first reply text written to the caller.',
    buckets: CALL_BUCKETS,
    registers,
  });
  const streams = new Counter({
    name: 'chat_adapter_streams_total',
    help: 'Streamed chats by outcome: completed, client_gone (the turn still completed or failed on its own), failed (an error part).',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of STREAM_OUTCOMES) streams.inc({ outcome }, 0);
  new Counter({
    name: 'chat_adapter_log_lines_dropped_total',
    help: 'Log lines dropped because stdout (a pipe or socket) was not being read and its backlog was full; for the whole process.',
    registers,
    collect() {
      this.reset();
      this.inc(droppedLogLines());
    },
  });
  // Zero-valued series exist from the start, so rates and alerts work before the first event.
  for (const result of ['hit', 'miss', 'error'] as const) cacheLookups.inc({ result }, 0);

  // Each label set is bound to its histogram child once, on first use, and kept for the process's life
  // (steps, parties, routes and statuses are a small fixed set).
  const requestChildren = new Map<string, HistogramChild>();
  const bound = (histogram: BoundHistogram, byOutcome: Map<string, HistogramChild>[], outcome: number, name: string): HistogramChild => {
    let child = byOutcome[outcome]!.get(name);
    if (child === undefined) {
      child = histogram.child(name, outcome === 0 ? 'ok' : 'error');
      byOutcome[outcome]!.set(name, child);
    }
    return child;
  };
  const stepChildren = [new Map<string, HistogramChild>(), new Map<string, HistogramChild>()];
  const downstreamChildren = [new Map<string, HistogramChild>(), new Map<string, HistogramChild>()];

  return {
    registry,
    scrape: () => registry.metrics(),
    observeRequest(method, route, statusCode, seconds, caller) {
      const key = `${method} ${statusCode} ${route} ${caller ?? ''}`;
      let child = requestChildren.get(key);
      if (child === undefined) {
        child = requestDuration.child(method, route, String(statusCode), caller);
        requestChildren.set(key, child);
      }
      child.observe(seconds);
    },
    observeStep(step, seconds, ok) {
      bound(stepDuration, stepChildren, ok ? 0 : 1, step).observe(seconds);
    },
    observeDownstream(party, seconds, failure) {
      bound(downstreamDuration, downstreamChildren, failure === undefined ? 0 : 1, party).observe(seconds);
      if (failure !== undefined) downstreamErrors.inc({ party, reason: failure });
    },
    observeFirstText(seconds) {
      firstText.observe(seconds);
    },
    countStream(outcome) {
      streams.inc({ outcome });
    },
    countCacheLookup(result) {
      cacheLookups.inc({ result });
    },
    watchCacheSessions(count) {
      new Gauge({
        name: 'chat_adapter_cache_sessions',
        help: 'Sessions held by the in-process session cache (never above CACHE_MAX_SESSIONS); absent with REDIS_URL.',
        registers,
        collect() {
          this.set(count());
        },
      });
    },
  };
}
