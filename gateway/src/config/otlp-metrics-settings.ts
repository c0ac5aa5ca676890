import { otelResourceAttributes } from './otel-resource.js';
import { exporterTimeoutMs, otlpEndpoint, positiveMs, wantsOtlpExporter, type OtlpEndpoint } from './otlp-endpoint.js';

/** Where and how the gateway's metrics are pushed over OTLP (docs/observability.md, Metrics). */
export interface OtlpMetricsSettings extends OtlpEndpoint {
  /** OTEL_METRIC_EXPORT_INTERVAL: milliseconds between two exports. */
  intervalMs: number;
  /** How long one export may take (OTEL_METRIC_EXPORT_TIMEOUT, and the exporter's OTEL_EXPORTER_OTLP_[METRICS_]TIMEOUT); never more than the interval. */
  timeoutMs: number;
  /** OTEL_RESOURCE_ATTRIBUTES with OTEL_SERVICE_NAME over its `service.name` (default `switchyard`). */
  resource: Record<string, string>;
  /** Values ignored with a warning (an exporter other than otlp, a bad number, a malformed header), logged when the export starts. */
  warnings: string[];
}

/**
 * The OTLP metrics export by the OpenTelemetry SDK's standard variables; undefined when no endpoint
 * is set, OTEL_SDK_DISABLED=true or OTEL_METRICS_EXPORTER does not name otlp (`none`, `prometheus`:
 * then only /metrics shows them).
 */
export function loadOtlpMetricsSettings(env: NodeJS.ProcessEnv): OtlpMetricsSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const warnings: string[] = [];
  if (!wantsOtlpExporter(env, 'OTEL_METRICS_EXPORTER', ['prometheus'], warnings)) return undefined;
  const endpoint = otlpEndpoint(env, 'METRICS', warnings);
  if (!endpoint) return undefined;
  const intervalMs = positiveMs(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, warnings);
  const exportTimeoutMs = positiveMs(env, 'OTEL_METRIC_EXPORT_TIMEOUT', 30_000, warnings);
  const requestTimeoutMs = exporterTimeoutMs(env, 'METRICS', warnings);
  return {
    ...endpoint,
    intervalMs,
    timeoutMs: Math.min(exportTimeoutMs, requestTimeoutMs, intervalMs),
    // Its warnings are the traces settings' to give: they read the same variable.
    resource: otelResourceAttributes(env, []),
    warnings,
  };
}
