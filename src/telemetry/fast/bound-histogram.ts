import type { Registry } from 'prom-client';

/*
 * A Prometheus histogram for the hot path. The per-step, per-request and per-call histograms are
 * observed about twenty times per chat; prom-client's own Histogram, on every observation, builds a
 * closure, validates and hashes the labels and finds the bucket by its string key. Here each label
 * set is bound once to a child (its counts in a typed array), and an observation is a bucket search
 * and three additions. The registry reads it through the same `get()` shape as prom-client's
 * metrics, so the exposition text is the same.
 */

export interface HistogramChild {
  /** `traceId`: the observation's trace, kept as its bucket's exemplar (shown in OpenMetrics scrapes). */
  observe(value: number, traceId?: string): void;
}

/** The latest observation of a bucket that named its trace. */
interface Exemplar {
  readonly traceId: string;
  readonly value: number;
  /** Unix seconds. */
  readonly at: number;
}

interface Series {
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket (not cumulative); the last slot is above the highest bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
  /** Per bucket, like `counts`; made on the first observation with a trace id. */
  exemplars: (Exemplar | undefined)[] | undefined;
}

interface ValuePair {
  labels: Record<string, string | number>;
  sharedLabels: Readonly<Record<string, string>>;
  value: number;
  metricName: string;
  exemplar?: { labelSet: Record<string, string>; value: number; timestamp: number };
}

interface JsonValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

export interface BoundHistogramConfig {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];
  readonly registers: readonly Registry[];
}

export class BoundHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly string[];
  readonly #buckets: readonly number[];
  /** Every child bound so far, by its label values; a child appears in the exposition once observed. */
  readonly #series = new Map<string, Series>();

  constructor(config: BoundHistogramConfig) {
    this.name = config.name;
    this.help = config.help;
    this.#labelNames = config.labelNames;
    this.#buckets = [...config.buckets].sort((a, b) => a - b);
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  /**
   * The child for these label values (in `labelNames` order; an undefined value leaves its label
   * out, as prom-client does for a label not given): bind it once and keep it.
   */
  child(...values: readonly (string | undefined)[]): HistogramChild {
    if (values.length !== this.#labelNames.length) throw new TypeError(`${this.name} takes ${this.#labelNames.length} label values`);
    const key = values.map((v) => (v === undefined ? '\u0001' : v)).join('\u0000');
    let series = this.#series.get(key);
    if (series === undefined) {
      const labels = Object.fromEntries(this.#labelNames.flatMap((name, i) => (values[i] === undefined ? [] : [[name, values[i]!]])));
      series = { labels, counts: new Float64Array(this.#buckets.length + 1), sum: 0, count: 0, exemplars: undefined };
      this.#series.set(key, series);
    }
    const bound = series;
    const buckets = this.#buckets;
    return {
      observe(value, traceId) {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        let i = 0;
        while (i < buckets.length && value > buckets[i]!) i++;
        bound.counts[i]! += 1;
        bound.sum += value;
        bound.count += 1;
        if (traceId !== undefined) (bound.exemplars ??= new Array<Exemplar | undefined>(buckets.length + 1))[i] = { traceId, value, at: Date.now() / 1000 };
      },
    };
  }

  /**
   * What prom-client's Registry writes: bucket lines (cumulative, `le` first), then sum and count.
   * `withExemplars`: each bucket line carries its latest exemplar (`trace_id`), which a registry
   * of the OpenMetrics content type writes (src/telemetry/open-metrics.ts).
   */
  async getForPromString(withExemplars = false): Promise<{ name: string; help: string; type: string; values: ValuePair[]; aggregator: string }> {
    const values: ValuePair[] = [];
    const bucketLine = (series: Series, i: number, le: number | string, value: number): ValuePair => {
      const line: ValuePair = { labels: { le }, sharedLabels: series.labels, value, metricName: `${this.name}_bucket` };
      const exemplar = withExemplars ? series.exemplars?.[i] : undefined;
      if (exemplar !== undefined) line.exemplar = { labelSet: { trace_id: exemplar.traceId }, value: exemplar.value, timestamp: exemplar.at };
      return line;
    };
    for (const series of this.#series.values()) {
      if (series.count === 0) continue;
      let cumulative = 0;
      for (let i = 0; i < this.#buckets.length; i++) {
        cumulative += series.counts[i]!;
        values.push(bucketLine(series, i, this.#buckets[i]!, cumulative));
      }
      values.push(bucketLine(series, this.#buckets.length, '+Inf', series.count));
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (`registry.getMetricsAsJSON()`): each value's labels in one object. */
  async get(): Promise<{ name: string; help: string; type: string; values: JsonValue[]; aggregator: string }> {
    const data = await this.getForPromString();
    return {
      ...data,
      // As prom-client gives them: bucket values carry an (empty) exemplar.
      values: data.values.map(({ labels, sharedLabels, value, metricName }) => ({
        labels: { ...labels, ...sharedLabels },
        value,
        metricName,
        exemplar: 'le' in labels ? null : undefined,
      })),
    };
  }

  /** `registry.resetMetrics()`: counts back to zero; bound children stay valid. */
  reset(): void {
    for (const series of this.#series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
      series.exemplars = undefined;
    }
  }
}
