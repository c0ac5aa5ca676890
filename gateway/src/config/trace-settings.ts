import { ConfigError } from './config-error.js';

/** Which traces are exported (OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, the specification's names). */
export type TraceSampler =
  | { kind: 'always_on' | 'always_off' | 'parentbased_always_on' | 'parentbased_always_off' }
  | { kind: 'traceidratio' | 'parentbased_traceidratio'; ratio: number };

/** Where and how traces are exported; without `export`, spans are still recorded for the request log. */
export interface TraceSettings {
  /** OTEL_SERVICE_NAME (default `switchyard`). */
  serviceName: string;
  sampler: TraceSampler;
  /** Absent when no endpoint is set or OTEL_SDK_DISABLED is true. */
  export?: {
    /** The traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
    url: string;
    protocol: 'http/protobuf' | 'http/json';
    /** OTEL_EXPORTER_OTLP_HEADERS, then OTEL_EXPORTER_OTLP_TRACES_HEADERS over it. */
    headers: Record<string, string>;
  };
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

function checkUrl(name: string, value: string): string {
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

/** `key1=value1,key2=value2`, each part URL-encoded (the specification's W3C Baggage format). */
function parseHeaders(name: string, value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of (value ?? '').split(',')) {
    if (!part.trim()) continue;
    const at = part.indexOf('=');
    if (at <= 0) throw new ConfigError(`${name}: "${part.trim()}" is not key=value`);
    try {
      headers[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${name}: "${part.trim()}" is not URL-encoded`);
    }
  }
  return headers;
}

function parseSampler(env: NodeJS.ProcessEnv): TraceSampler {
  const kind = (env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on').toLowerCase();
  if (!(SAMPLERS as readonly string[]).includes(kind))
    throw new ConfigError(`OTEL_TRACES_SAMPLER: "${kind}" is not one of ${SAMPLERS.join(', ')}`);
  if (kind !== 'traceidratio' && kind !== 'parentbased_traceidratio')
    return { kind: kind as Exclude<TraceSampler['kind'], 'traceidratio' | 'parentbased_traceidratio'> };
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? Number(arg) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG: "${arg}" is not a ratio between 0 and 1`);
  return { kind, ratio };
}

/**
 * The OpenTelemetry variables for traces, read once at start: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT,
 * _PROTOCOL, _HEADERS, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER(_ARG) and OTEL_SDK_DISABLED.
 */
export function loadTraceSettings(env: NodeJS.ProcessEnv): TraceSettings {
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'switchyard';
  const sampler = parseSampler(env);
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  if (disabled || (!tracesEndpoint && !endpoint)) return { serviceName, sampler };
  const url = tracesEndpoint
    ? checkUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
    : `${checkUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint!).replace(/\/+$/, '')}/v1/traces`;
  const protocolName = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolName]?.trim() || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new ConfigError(`${protocolName}: "${protocol}" is not supported; use http/protobuf or http/json`);
  const headers = {
    ...parseHeaders('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS),
    ...parseHeaders('OTEL_EXPORTER_OTLP_TRACES_HEADERS', env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
  };
  return { serviceName, sampler, export: { url, protocol, headers } };
}
