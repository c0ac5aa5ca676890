import { ConfigError } from './config-error.js';

/** Where and how the gateway's metrics are pushed over OTLP (docs/observability.md, Metrics). */
export interface OtlpMetricsSettings {
  /** The collector's metrics URL: OTEL_EXPORTER_OTLP_METRICS_ENDPOINT as is, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/metrics`. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** OTEL_EXPORTER_OTLP_HEADERS with OTEL_EXPORTER_OTLP_METRICS_HEADERS over it. */
  headers: Record<string, string>;
  /** OTEL_METRIC_EXPORT_INTERVAL: milliseconds between two exports. */
  intervalMs: number;
  /** How long one export may take (OTEL_METRIC_EXPORT_TIMEOUT, and the exporter's OTEL_EXPORTER_OTLP_[METRICS_]TIMEOUT); never more than the interval. */
  timeoutMs: number;
  /** OTEL_SERVICE_NAME, default `switchyard`. */
  serviceName: string;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  if (!/^\d+$/.test(text) || Number(text) === 0)
    throw new ConfigError(`${name}: "${text}" is not a positive whole number of milliseconds`);
  return Number(text);
}

/** `key=value,key2=value2`, values percent-encoded (the W3C Baggage form the OpenTelemetry variables use). */
function parseHeaders(env: NodeJS.ProcessEnv, name: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (env[name] ?? '').split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim() : '';
    let value: string | undefined;
    try {
      value = at > 0 ? decodeURIComponent(pair.slice(at + 1).trim()) : undefined;
    } catch {
      value = undefined;
    }
    // The values may be credentials: the message names the variable and the key only.
    if (!key || value === undefined)
      throw new ConfigError(
        `${name}: expected key=value pairs separated by commas${key ? ` (the value of ${key})` : ''}`,
      );
    headers[key] = value;
  }
  return headers;
}

function checkedUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name}: "${value}" is not a URL (expected http://host:4318)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name}: the scheme must be http:// or https://, not ${url.protocol}//`);
  return value;
}

/**
 * The OTLP metrics export by the OpenTelemetry SDK's standard variables; undefined when no endpoint
 * is set, OTEL_SDK_DISABLED=true or OTEL_METRICS_EXPORTER=none (then only /metrics shows them).
 */
export function loadOtlpMetricsSettings(env: NodeJS.ProcessEnv): OtlpMetricsSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_METRICS_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const signalEndpoint = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  let url: string;
  if (signalEndpoint) url = checkedUrl('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', signalEndpoint);
  else if (endpoint) url = `${checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint).replace(/\/+$/, '')}/v1/metrics`;
  else return undefined;

  const protocolName = env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolName]?.trim() || 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw new ConfigError(
      `${protocolName}: "${protocol}" is not supported; use http/protobuf (the default) or http/json${protocol === 'grpc' ? ' (a collector takes both on port 4318)' : ''}`,
    );

  const intervalMs = positiveMs(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000);
  const exportTimeoutMs = positiveMs(env, 'OTEL_METRIC_EXPORT_TIMEOUT', 30_000);
  const requestTimeoutMs = env.OTEL_EXPORTER_OTLP_METRICS_TIMEOUT?.trim()
    ? positiveMs(env, 'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT', 10_000)
    : positiveMs(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 10_000);
  return {
    url,
    protocol: protocol as OtlpMetricsSettings['protocol'],
    headers: {
      ...parseHeaders(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...parseHeaders(env, 'OTEL_EXPORTER_OTLP_METRICS_HEADERS'),
    },
    intervalMs,
    timeoutMs: Math.min(exportTimeoutMs, requestTimeoutMs, intervalMs),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'switchyard',
  };
}
