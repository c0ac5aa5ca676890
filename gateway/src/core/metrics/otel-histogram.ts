import type { Registry } from 'prom-client';
import { FastHistogram } from './fast-histogram.js';

/** An OpenTelemetry attribute name as a Prometheus label: `gen_ai.request.model` is `gen_ai_request_model`. */
export type Underscored<Name extends string> = Name extends `${infer Head}.${infer Tail}`
  ? `${Head}_${Underscored<Tail>}`
  : Name;

/** The units the gateway's histograms use, with the suffix OpenTelemetry's Prometheus rules give each (an annotation such as `{token}` gives none). */
const PROMETHEUS_UNIT_SUFFIX = { s: '_seconds', '{token}': '' } as const;

/** A histogram as the OpenTelemetry semantic conventions name it. */
export interface HistogramSpec<Attribute extends string> {
  name: string;
  unit: keyof typeof PROMETHEUS_UNIT_SUFFIX;
  description: string;
  /** Its attributes; a series whose value for one is '' leaves that attribute out (error.type of a success). */
  attributes: readonly Attribute[];
  /** Explicit bucket boundaries, as the conventions advise for it. */
  buckets: readonly number[];
}

/** One series of an OtelHistogram as OTLP sends it. */
export interface HistogramPoint {
  attributes: Record<string, string | number>;
  boundaries: number[];
  bucketCounts: number[];
  sum: number;
  count: number;
}

function underscored<Name extends string>(name: Name): Underscored<Name> {
  return name.replaceAll('.', '_') as Underscored<Name>;
}

/**
 * A FastHistogram named by OpenTelemetry's conventions: /metrics shows it under the Prometheus name
 * OpenTelemetry's compatibility rules give (dots as underscores, the unit as a suffix:
 * `gen_ai.client.operation.duration` is `gen_ai_client_operation_duration_seconds`), and an OTLP
 * export reads the same series (`points`) under the OpenTelemetry name, so exporting adds nothing
 * to the request path.
 */
export class OtelHistogram<Attribute extends string> extends FastHistogram<Underscored<Attribute>> {
  constructor(
    readonly spec: HistogramSpec<Attribute>,
    registry: Registry,
  ) {
    super(
      underscored(spec.name) + PROMETHEUS_UNIT_SUFFIX[spec.unit],
      spec.description,
      spec.attributes.map(underscored),
      spec.buckets,
      registry,
    );
  }

  /**
   * Each series counted so far under its OpenTelemetry attributes (a '' label value left out), with
   * one count per bucket and the count above the last boundary, as OTLP's histogram points carry them.
   */
  points(): HistogramPoint[] {
    const boundaries = [...this.upperBounds];
    return this.series.map(({ labels, counts, sum, count }) => {
      const attributes: Record<string, string | number> = {};
      this.spec.attributes.forEach((attribute, i) => {
        const value = labels[this.labelNames[i]];
        if (value !== '') attributes[attribute] = value;
      });
      const bucketCounts = Array.from(counts);
      bucketCounts.push(count - bucketCounts.reduce((total, n) => total + n, 0));
      return { attributes, boundaries, bucketCounts, sum, count };
    });
  }
}
