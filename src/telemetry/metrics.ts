import { getHeapStatistics } from 'node:v8';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { droppedLogLines } from './log-destination.ts';
import { openMetricsText } from './open-metrics.ts';
import { CALL_BUCKETS, requestHistograms, type DownstreamMetrics, type RequestHistograms } from './request-histograms.ts';

export type { AnswerMode, DownstreamMetrics } from './request-histograms.ts';

export type CacheLookupResult = 'hit' | 'miss' | 'error';

/** How a streamed chat ended (docs/api.md#streamed-replies): answered, the caller left first, or an `error` part. */
export type StreamOutcome = 'completed' | 'client_gone' | 'failed' | 'stopped';
const STREAM_OUTCOMES: readonly StreamOutcome[] = ['completed', 'client_gone', 'failed', 'stopped'];

/** How a chat's answer went out (src/http/request-outcome.ts): a JSON body or an event stream. */

/** Why a chat was refused at once to protect the service (docs/api.md#overload-and-input-depth). */
export type ShedReason = 'event_loop_delay';
const SHED_REASONS: readonly ShedReason[] = ['event_loop_delay'];

/**
 * The service's Prometheus metrics, on a registry of its own (never prom-client's global one), so
 * that several app instances in one process each count only their own traffic.
 */
export interface Metrics extends DownstreamMetrics, RequestHistograms {
  readonly registry: Registry;
  /** The text exposition for `GET /metrics`. */
  scrape(): Promise<string>;
  /** The OpenMetrics exposition (`Accept: application/openmetrics-text`): latency buckets carry exemplars. */
  scrapeOpenMetrics(): Promise<string>;
  /** For the session cache: one call per lookup. */
  countCacheLookup(result: CacheLookupResult): void;
  /** A streamed chat: from the request's arrival to its first reply text on the wire. */
  observeFirstText(seconds: number): void;
  countStream(outcome: StreamOutcome): void;
  observeEngineFirstEvent(seconds: number): void;
  /** A chat refused at once (503) to protect the service. */
  countShed(reason: ShedReason): void;
  /** The in-process session cache: `count` is read at each scrape into `chat_adapter_cache_sessions`. */
  watchCacheSessions(count: () => number): void;
}

export interface MetricsOptions {
  /** Process metrics (CPU, memory, event loop lag, GC); on by default. */
  readonly processMetrics?: boolean;
}

// Time to first text: a visitor notices 1 to 3 s, so those seconds are resolved finely.
const FIRST_TEXT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 5, 10, 30];

/** The ceiling nodejs_heap_size_used_bytes is compared with (--max-old-space-size plus the young generation). */
function registerHeapLimit(registers: Registry[]): void {
  new Gauge({
    name: 'chat_adapter_heap_limit_bytes',
    help: "The V8 heap's ceiling (heap_size_limit): past it the process dies of heap exhaustion.",
    registers,
    collect() {
      this.set(getHeapStatistics().heap_size_limit);
    },
  });
}

function registerDroppedLogLines(registers: Registry[]): void {
  new Counter({
    name: 'chat_adapter_log_lines_dropped_total',
    help: 'Log lines dropped because stdout (a pipe or socket) was not being read and its backlog was full; for the whole process.',
    registers,
    collect() {
      this.reset();
      this.inc(droppedLogLines());
    },
  });
}

type ChatCounters = Pick<Metrics, 'countCacheLookup' | 'observeFirstText' | 'countStream' | 'observeEngineFirstEvent' | 'countShed'>;

/** What a chat does besides its latency: cache lookups, streams and their first text, the engine's first event, shedding. */
function chatCounters(registers: Registry[]): ChatCounters {
  const cacheLookups = new Counter({
    name: 'chat_adapter_cache_lookups_total',
    help: 'Session cache: hit or miss once per chat; error once per failed backend read or write (a chat whose read failed is also a miss).',
    labelNames: ['result'] as const,
    registers,
  });
  const firstText = new Histogram({
    name: 'chat_adapter_time_to_first_text_seconds',
    help: 'Streamed chats: time from the request to the first reply text written to the caller.',
    buckets: FIRST_TEXT_BUCKETS,
    registers,
  });
  const streams = new Counter({
    name: 'chat_adapter_streams_total',
    help: 'Streamed chats by outcome: completed, client_gone (the turn still completed or failed on its own), failed (an error part).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const engineFirstEvent = new Histogram({
    name: 'chat_adapter_engine_first_event_seconds',
    help: "Engine calls: time from the request to the engine's first answer event (the whole answer when it answers JSON, the first event when it streams); a streamed answer's length is not the engine's latency.",
    buckets: CALL_BUCKETS,
    registers,
  });
  const shed = new Counter({
    name: 'chat_adapter_shed_total',
    help: 'Chats refused at once with 503 to protect the service, by reason (event_loop_delay: the event loop lagged past OVERLOAD_MAX_EVENT_LOOP_DELAY_MS).',
    labelNames: ['reason'] as const,
    registers,
  });
  // Zero-valued series exist from the start, so rates and alerts work before the first event.
  for (const outcome of STREAM_OUTCOMES) streams.inc({ outcome }, 0);
  for (const reason of SHED_REASONS) shed.inc({ reason }, 0);
  for (const result of ['hit', 'miss', 'error'] as const) cacheLookups.inc({ result }, 0);
  return {
    countCacheLookup: (result) => cacheLookups.inc({ result }),
    observeFirstText: (seconds) => firstText.observe(seconds),
    countStream: (outcome) => streams.inc({ outcome }),
    observeEngineFirstEvent: (seconds) => engineFirstEvent.observe(seconds),
    countShed: (reason) => shed.inc({ reason }),
  };
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  // Registered in this order: the exposition lists the families so.
  registerHeapLimit(registers);
  const histograms = requestHistograms(registers);
  const counters = chatCounters(registers);
  registerDroppedLogLines(registers);
  return {
    registry,
    scrape: () => registry.metrics(),
    scrapeOpenMetrics: () => openMetricsText(registry),
    ...histograms,
    ...counters,
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
