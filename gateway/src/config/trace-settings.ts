import { otelResourceAttributes } from './otel-resource.js';
import { exporterTimeoutMs, otlpEndpoint, positiveMs, wantsOtlpExporter, type OtlpEndpoint } from './otlp-endpoint.js';

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
  /** OTEL_RESOURCE_ATTRIBUTES with OTEL_SERVICE_NAME over its `service.name` (default `switchyard`). */
  resource: Record<string, string>;
  sampler: TraceSampler;
  /** Absent when no endpoint is set, OTEL_TRACES_EXPORTER is `none` or OTEL_SDK_DISABLED is true. */
  export?: TraceExport;
  /** Values the specification has ignored with a warning (an unknown sampler, a bad ratio or number, a malformed header): logged at start. */
  warnings: string[];
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const DEFAULT_SAMPLER = 'parentbased_always_on';

/** An unknown sampler, or a ratio that is not one, is ignored with a warning (the SDK environment specification). */
function parseSampler(env: NodeJS.ProcessEnv, warnings: string[]): TraceSampler {
  let kind = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || DEFAULT_SAMPLER;
  if (!(SAMPLERS as readonly string[]).includes(kind)) {
    warnings.push(`OTEL_TRACES_SAMPLER: "${kind}" is not one of ${SAMPLERS.join(', ')}; using ${DEFAULT_SAMPLER}`);
    kind = DEFAULT_SAMPLER;
  }
  if (kind !== 'traceidratio' && kind !== 'parentbased_traceidratio')
    return { kind: kind as Exclude<TraceSampler['kind'], 'traceidratio' | 'parentbased_traceidratio'> };
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? Number(arg) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    warnings.push(`OTEL_TRACES_SAMPLER_ARG: "${arg}" is not a ratio between 0 and 1; using 1`);
    return { kind, ratio: 1 };
  }
  return { kind, ratio };
}

/**
 * The OpenTelemetry variables for traces, read once at start: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT,
 * _PROTOCOL, _HEADERS, _TIMEOUT, OTEL_BSP_SCHEDULE_DELAY, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_TRACES_SAMPLER(_ARG), OTEL_TRACES_EXPORTER and OTEL_SDK_DISABLED.
 */
export function loadTraceSettings(env: NodeJS.ProcessEnv): TraceSettings {
  const warnings: string[] = [];
  const resource = otelResourceAttributes(env, warnings);
  const sampler = parseSampler(env, warnings);
  const settings: TraceSettings = { resource, sampler, warnings };
  if (
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' ||
    !wantsOtlpExporter(env, 'OTEL_TRACES_EXPORTER', [], warnings)
  )
    return settings;
  const endpoint = otlpEndpoint(env, 'TRACES', warnings);
  if (!endpoint) return settings;
  const timeoutMs = exporterTimeoutMs(env, 'TRACES', warnings);
  const batchDelayMs = positiveMs(env, 'OTEL_BSP_SCHEDULE_DELAY', 1000, warnings);
  return { ...settings, export: { ...endpoint, timeoutMs, batchDelayMs } };
}

/**
 * Whether these settings need the OpenTelemetry SDK (core/tracing/trace-sdk.ts, loaded only then): an
 * OTLP export, or a sampler other than the default `parentbased_always_on`, which is decided without it.
 */
export function needsTraceSdk(settings: TraceSettings | undefined): boolean {
  return settings !== undefined && (settings.export !== undefined || settings.sampler.kind !== DEFAULT_SAMPLER);
}
