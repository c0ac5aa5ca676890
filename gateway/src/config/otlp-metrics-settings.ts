import { exporterTimeoutMs, otlpEndpoint, positiveMs, type OtlpEndpoint } from './otlp-endpoint.js';

/** Where and how the gateway's metrics are pushed over OTLP (docs/observability.md, Metrics). */
export interface OtlpMetricsSettings extends OtlpEndpoint {
  /** OTEL_METRIC_EXPORT_INTERVAL: milliseconds between two exports. */
  intervalMs: number;
  /** How long one export may take (OTEL_METRIC_EXPORT_TIMEOUT, and the exporter's OTEL_EXPORTER_OTLP_[METRICS_]TIMEOUT); never more than the interval. */
  timeoutMs: number;
  /** OTEL_SERVICE_NAME, default `switchyard`. */
  serviceName: string;
}

/**
 * The OTLP metrics export by the OpenTelemetry SDK's standard variables; undefined when no endpoint
 * is set, OTEL_SDK_DISABLED=true or OTEL_METRICS_EXPORTER=none (then only /metrics shows them).
 */
export function loadOtlpMetricsSettings(env: NodeJS.ProcessEnv): OtlpMetricsSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_METRICS_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const endpoint = otlpEndpoint(env, 'METRICS');
  if (!endpoint) return undefined;
  const intervalMs = positiveMs(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000);
  const exportTimeoutMs = positiveMs(env, 'OTEL_METRIC_EXPORT_TIMEOUT', 30_000);
  const requestTimeoutMs = exporterTimeoutMs(env, 'METRICS');
  return {
    ...endpoint,
    intervalMs,
    timeoutMs: Math.min(exportTimeoutMs, requestTimeoutMs, intervalMs),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'switchyard',
  };
}
