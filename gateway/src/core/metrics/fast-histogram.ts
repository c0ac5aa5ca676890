import type { Registry } from 'prom-client';

interface Series {
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
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly Label[],
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** Counts `value` under these labels; a value that is not a finite number is not counted. */
  observe(labels: Readonly<Record<Label, string | number>>, value: number): void {
    if (!Number.isFinite(value)) return;
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\u0000`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { ...labels }, counts: new Float64Array(this.upperBounds.length), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]) bucket++;
    if (bucket < bounds.length) series.counts[bucket]++;
    series.sum += value;
    series.count++;
  }

  /** What prom-client's registry formats: the values of every series, as its histograms give them. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: ExportedValue[] }> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.series.values()) {
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
    this.series.clear();
  }
}
