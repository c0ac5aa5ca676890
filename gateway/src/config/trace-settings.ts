import { ConfigError } from './config-error.js';
import { exporterTimeoutMs, otlpEndpoint, positiveMs, type OtlpEndpoint } from './otlp-endpoint.js';

/** Which traces are exported (OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, the specification's names). */
export type TraceSampler =
  | { kind: 'always_on' | 'always_off' | 'parentbased_always_on' | 'parentbased_always_off' }
  | { kind: 'traceidratio' | 'parentbased_traceidratio'; ratio: number };

/** The collector of the traces, and how the batch processor sends to it. */
export interface TraceExport extends OtlpEndpoint {
  /** How long one export may take: OTEL_EXPORTER_OTLP_TRACES_TIMEOUT over OTEL_EXPORTER_OTLP_TIMEOUT (default 10000). */
  timeoutMs: number;
  /** Milliseconds between two batches: OTEL_BSP_SCHEDULE_DELAY (default 1000). */
  batchDelayMs: number;
}

/** Where and how traces are exported; without `export`, spans are still recorded for the request log. */
export interface TraceSettings {
  /** OTEL_SERVICE_NAME (default `switchyard`). */
  serviceName: string;
  sampler: TraceSampler;
  /** Absent when no endpoint is set or OTEL_SDK_DISABLED is true. */
  export?: TraceExport;
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

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
 * _PROTOCOL, _HEADERS, _TIMEOUT, OTEL_BSP_SCHEDULE_DELAY, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER(_ARG)
 * and OTEL_SDK_DISABLED.
 */
export function loadTraceSettings(env: NodeJS.ProcessEnv): TraceSettings {
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'switchyard';
  const sampler = parseSampler(env);
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { serviceName, sampler };
  const endpoint = otlpEndpoint(env, 'TRACES');
  if (!endpoint) return { serviceName, sampler };
  const timeoutMs = exporterTimeoutMs(env, 'TRACES');
  const batchDelayMs = positiveMs(env, 'OTEL_BSP_SCHEDULE_DELAY', 1000);
  return { serviceName, sampler, export: { ...endpoint, timeoutMs, batchDelayMs } };
}
