import { ExportResultCode, hrTime, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ValueType, type HrTime } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
  type MetricProducer,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import type { OtlpMetricsSettings } from '../../config/otlp-metrics-settings.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import type { OtelHistogram } from './otel-histogram.js';

interface ExportLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/** A collector that keeps failing is reminded of at most this often. */
export const EXPORT_WARNING_EVERY_MS = 30_000;

/** What a final export at close may take, whatever the export timeout: a dead collector must not hold up a stop. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Pushes the gateway's histograms (the GenAI ones and the HTTP server duration) to an OTLP collector
 * with the OpenTelemetry SDK: a periodic reader collects them every interval from the same series
 * /metrics shows, so recording costs a request nothing more. One export at a time, each bounded by
 * the timeout; a collector that is down, slow or refusing loses that export's points (the next one
 * carries the cumulative counts again), is counted in switchyard_otlp_metric_export_failures_total
 * and logged at most every 30 s. The MeterProvider is this gateway's own, never the global one.
 */
export class OtlpMetricsExport {
  private readonly provider: MeterProvider;

  constructor(
    settings: OtlpMetricsSettings,
    metrics: GatewayMetrics,
    identity: { version: string; instanceId: string },
    log: ExportLogger,
    now: () => number = Date.now,
  ) {
    for (const warning of settings.warnings) log.warn({}, `metrics: ${warning}`);
    // The gateway's own attributes over OTEL_RESOURCE_ATTRIBUTES', as the resource specification merges them.
    const resource = resourceFromAttributes({
      ...settings.resource,
      'service.version': identity.version,
      'service.instance.id': identity.instanceId,
    });
    const exporterOptions = { url: settings.url, headers: settings.headers, timeoutMillis: settings.timeoutMs };
    const exporter =
      settings.protocol === 'http/json'
        ? new JsonMetricExporter(exporterOptions)
        : new ProtobufMetricExporter(exporterOptions);
    const startTime = hrTime();
    const producer: MetricProducer = {
      collect: () => {
        const endTime = hrTime();
        const collected = metrics
          .histograms()
          .map((histogram) => metricData(histogram, startTime, endTime))
          .filter((data) => data.dataPoints.length > 0);
        const resourceMetrics: ResourceMetrics = {
          resource,
          scopeMetrics:
            collected.length > 0
              ? [{ scope: { name: 'switchyard', version: identity.version }, metrics: collected }]
              : [],
        };
        return Promise.resolve({ resourceMetrics, errors: [] });
      },
    };
    const warnings = new ExportWarnings(settings.url, log, now, () => metrics.exportFailed());
    this.provider = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: watched(exporter, warnings),
          exportIntervalMillis: settings.intervalMs,
          exportTimeoutMillis: settings.timeoutMs,
          metricProducers: [producer],
        }),
      ],
    });
  }

  /** Sends what was counted since the last export one more time (within a few seconds), then stops. */
  async close(): Promise<void> {
    await this.provider.shutdown({ timeoutMillis: CLOSE_TIMEOUT_MS }).catch(() => undefined);
  }
}

/** A histogram's series as the OpenTelemetry SDK's cumulative metric data, what its exporters send. */
function metricData(histogram: OtelHistogram<string>, startTime: HrTime, endTime: HrTime): HistogramMetricData {
  const { name, description, unit } = histogram.spec;
  return {
    descriptor: { name, description, unit, valueType: ValueType.DOUBLE },
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.HISTOGRAM,
    dataPoints: histogram.points().map(({ attributes, boundaries, bucketCounts, sum, count }) => ({
      startTime,
      endTime,
      attributes,
      value: { buckets: { boundaries, counts: bucketCounts }, sum, count },
    })),
  };
}

/** The exporter, telling `warnings` how each export went. */
function watched(exporter: PushMetricExporter, warnings: ExportWarnings): PushMetricExporter {
  return {
    export(metrics, resultCallback) {
      exporter.export(metrics, (result) => {
        warnings.report(result);
        resultCallback(result);
      });
    },
    forceFlush: () => exporter.forceFlush(),
    shutdown: () => exporter.shutdown(),
    selectAggregationTemporality: exporter.selectAggregationTemporality?.bind(exporter),
  };
}

/** One line when exports start failing, a reminder at most every 30 s while they do, one when they work again. */
class ExportWarnings {
  private failingSince: number | undefined;
  private lastLine = 0;
  private failedSinceLine = 0;

  constructor(
    private readonly url: string,
    private readonly log: ExportLogger,
    private readonly now: () => number,
    private readonly counted: () => void,
  ) {}

  report(result: ExportResult): void {
    const now = this.now();
    if (result.code === ExportResultCode.SUCCESS) {
      if (this.failingSince === undefined) return;
      this.log.info(
        { collector: this.url, failing_s: Math.round((now - this.failingSince) / 1000) },
        'OTLP metrics export works again',
      );
      this.failingSince = undefined;
      return;
    }
    this.counted();
    const reason = result.error?.message ?? 'unknown error';
    if (this.failingSince === undefined) {
      this.failingSince = now;
      this.lastLine = now;
      this.failedSinceLine = 0;
      this.log.warn(
        { collector: this.url, reason },
        'OTLP metrics export failed; requests are not affected, the next export retries',
      );
      return;
    }
    this.failedSinceLine++;
    if (now - this.lastLine < EXPORT_WARNING_EVERY_MS) return;
    this.log.warn(
      { collector: this.url, reason, failed: this.failedSinceLine },
      `OTLP metrics export still failing after ${Math.round((now - this.failingSince) / 1000)} s`,
    );
    this.lastLine = now;
    this.failedSinceLine = 0;
  }
}
