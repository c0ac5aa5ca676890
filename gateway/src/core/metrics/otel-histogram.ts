import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import { AggregationTemporality, DataPointType, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
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

function underscored<Name extends string>(name: Name): Underscored<Name> {
  return name.replaceAll('.', '_') as Underscored<Name>;
}

/**
 * A FastHistogram named by OpenTelemetry's conventions: /metrics shows it under the Prometheus name
 * OpenTelemetry's compatibility rules give (dots as underscores, the unit as a suffix:
 * `gen_ai.client.operation.duration` is `gen_ai_client_operation_duration_seconds`), and an OTLP
 * export reads the same series as cumulative histogram points under the OpenTelemetry name, so
 * exporting adds nothing to the request path.
 */
export class OtelHistogram<Attribute extends string> extends FastHistogram<Underscored<Attribute>> {
  constructor(
    private readonly spec: HistogramSpec<Attribute>,
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

  /** The series counted since `startTime`, as the OpenTelemetry SDK's metric data (what its exporters send). */
  metricData(startTime: HrTime, endTime: HrTime): HistogramMetricData {
    const { name, description, unit, attributes } = this.spec;
    const boundaries = [...this.upperBounds];
    return {
      descriptor: { name, description, unit, valueType: ValueType.DOUBLE },
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: this.series.map(({ labels, counts, sum, count }) => {
        const pointAttributes: Attributes = {};
        attributes.forEach((attribute, i) => {
          const value = labels[this.labelNames[i]];
          if (value !== '') pointAttributes[attribute] = value;
        });
        const bucketCounts = Array.from(counts);
        bucketCounts.push(count - bucketCounts.reduce((total, n) => total + n, 0));
        return {
          startTime,
          endTime,
          attributes: pointAttributes,
          value: { buckets: { boundaries, counts: bucketCounts }, sum, count },
        };
      }),
    };
  }
}
