import type { Registry } from 'prom-client';

export interface Series {
  labels: Record<string, string | number>;
  /** Observations per bucket (not cumulative), one slot per upper bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

interface ExportedValue {
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string | number>;
  value: number;
}

/**
 * A Prometheus histogram for the request path: `observe` is one Map lookup by the label values and
 * a bucket search. prom-client's own validates and hashes the label object on every call, which
 * with five observations per chat request was 1.5 to 2.7 % of the gateway's CPU. Registered in a
 * prom-client registry, it is exposed in the same text format as a prom-client histogram (buckets
 * with `le` first, then `+Inf`, `_sum` and `_count`), so /metrics does not change.
 */
export class FastHistogram<Label extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  protected readonly series: Series[] = [];
  /** Label values, one Map level per label name, down to the series: found without building a key string per call. */
  private readonly index = new Map<string, unknown>();

  constructor(
    readonly name: string,
    readonly help: string,
    protected readonly labelNames: readonly Label[],
    protected readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** Counts `value` under these labels; a value that is not a finite number is not counted. */
  observe(labels: Readonly<Record<Label, string | number>>, value: number): void {
    if (!Number.isFinite(value)) return;
    const series = this.seriesOf(labels);
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]) bucket++;
    if (bucket < bounds.length) series.counts[bucket]++;
    series.sum += value;
    series.count++;
  }

  private seriesOf(labels: Readonly<Record<Label, string | number>>): Series {
    const names = this.labelNames;
    let level = this.index;
    for (let i = 0; i < names.length - 1; i++) {
      const text = String(labels[names[i]]);
      let next = level.get(text) as Map<string, unknown> | undefined;
      if (!next) {
        next = new Map();
        level.set(text, next);
      }
      level = next;
    }
    const last = String(labels[names[names.length - 1]]);
    let series = level.get(last) as Series | undefined;
    if (!series) {
      series = { labels: { ...labels }, counts: new Float64Array(this.upperBounds.length), sum: 0, count: 0 };
      level.set(last, series);
      this.series.push(series);
    }
    return series;
  }

  /** What prom-client's registry formats: the values of every series, as its histograms give them. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: ExportedValue[] }> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.series) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, i) => {
        cumulative += counts[i];
        values.push({ metricName: bucketName, labels: { le: bound }, sharedLabels: labels, value: cumulative });
      });
      values.push({ metricName: bucketName, labels: { le: '+Inf' }, sharedLabels: labels, value: count });
      values.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels: labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels: labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.length = 0;
    this.index.clear();
  }
}
