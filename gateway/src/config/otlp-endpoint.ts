import { ConfigError } from './config-error.js';

/** Where one signal (traces or metrics) is sent over OTLP/HTTP, by the OpenTelemetry SDK's standard variables. */
export interface OtlpEndpoint {
  /** OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/<signal>`. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** OTEL_EXPORTER_OTLP_HEADERS with OTEL_EXPORTER_OTLP_<SIGNAL>_HEADERS over it. */
  headers: Record<string, string>;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * Whether OTEL_TRACES_EXPORTER or OTEL_METRICS_EXPORTER asks for OTLP (the default). `none` alone asks
 * for nothing; `known` are the other values this gateway honours (its /metrics page is `prometheus`).
 * Values it does not have (zipkin, console) are ignored with a warning, and a list of only those is
 * as if unset, as the SDK environment specification has unknown values handled.
 */
export function wantsOtlpExporter(
  env: NodeJS.ProcessEnv,
  variable: 'OTEL_TRACES_EXPORTER' | 'OTEL_METRICS_EXPORTER',
  known: readonly string[],
  warnings: string[],
): boolean {
  const listed = (env[variable] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const names = new Set(listed.filter((name) => name !== 'none'));
  if (names.size === 0) return listed.length === 0;
  const honoured = [...names].filter((name) => name === 'otlp' || known.includes(name));
  const ignored = [...names].filter((name) => !honoured.includes(name));
  if (ignored.length > 0)
    warnings.push(
      `${variable}: ${ignored.join(', ')} is not supported here (${['otlp', ...known, 'none'].join(', ')} are); ignored`,
    );
  return honoured.length === 0 || honoured.includes('otlp');
}

/**
 * A variable holding a positive whole number of milliseconds, or `fallback` when it is unset or blank;
 * any other value is ignored with a warning, as the SDK environment specification has invalid values handled.
 */
export function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number, warnings: string[]): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  if (/^\d+$/.test(text) && Number(text) > 0) return Number(text);
  warnings.push(`${name}: "${text}" is not a positive whole number of milliseconds; using ${fallback}`);
  return fallback;
}

/** The exporter's timeout for one request: OTEL_EXPORTER_OTLP_<SIGNAL>_TIMEOUT over OTEL_EXPORTER_OTLP_TIMEOUT (default 10000). */
export function exporterTimeoutMs(env: NodeJS.ProcessEnv, signal: 'TRACES' | 'METRICS', warnings: string[]): number {
  const name = env[`OTEL_EXPORTER_OTLP_${signal}_TIMEOUT`]?.trim()
    ? `OTEL_EXPORTER_OTLP_${signal}_TIMEOUT`
    : 'OTEL_EXPORTER_OTLP_TIMEOUT';
  return positiveMs(env, name, 10_000, warnings);
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
 * `key=value,key2=value2`, values percent-encoded (the W3C Baggage form the OpenTelemetry variables
 * use); a pair that is not one is left out with a warning, as the OpenTelemetry JS SDK does.
 */
function parseHeaders(env: NodeJS.ProcessEnv, name: string, warnings: string[]): Record<string, string> {
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
      warnings.push(
        `${name}: expected key=value pairs separated by commas; ${key ? `the value of ${key}` : 'a pair without a key'} is left out`,
      );
    else headers[key] = value;
  }
  return headers;
}

/**
 * The OTLP/HTTP endpoint of one signal, or undefined when neither OTEL_EXPORTER_OTLP_ENDPOINT nor the
 * signal's own endpoint is set. A bad URL, or a protocol other than http/protobuf or http/json, stops
 * the start with a ConfigError naming the variable (the signal could not be sent anywhere); a
 * malformed header pair is left out with a warning.
 */
export function otlpEndpoint(
  env: NodeJS.ProcessEnv,
  signal: 'TRACES' | 'METRICS',
  warnings: string[],
): OtlpEndpoint | undefined {
  const signalEndpoint = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  let url: string;
  if (signalEndpoint) url = checkedUrl(`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`, signalEndpoint);
  else if (endpoint)
    url = `${checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint).replace(/\/+$/, '')}/v1/${signal.toLowerCase()}`;
  else return undefined;
  const protocolName = env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`]?.trim()
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolName]?.trim() || 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw new ConfigError(
      `${protocolName}: "${protocol}" is not supported; use http/protobuf (the default) or http/json${protocol === 'grpc' ? ' (a collector takes both on port 4318)' : ''}`,
    );
  const headers = {
    ...parseHeaders(env, 'OTEL_EXPORTER_OTLP_HEADERS', warnings),
    ...parseHeaders(env, `OTEL_EXPORTER_OTLP_${signal}_HEADERS`, warnings),
  };
  return { url, protocol: protocol as OtlpEndpoint['protocol'], headers };
}
