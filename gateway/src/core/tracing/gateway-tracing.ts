import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { TraceState, parseTraceParent } from '@opentelemetry/core';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import { Counter, type Registry } from 'prom-client';
import type { TraceSettings } from '../../config/trace-settings.js';
import type { SpanAttributes, StageSpan, StageTracer } from '../../providers/contracts/stage-tracer.js';
import type { IdGenerator } from '../ids/id-generator.js';
import type { OtlpSpanExport } from './otlp-span-export.js';
import { RequestTrace, TraceSpan } from './request-trace.js';
import type { TraceSdk } from './trace-sdk.js';

/** `SamplingDecision.RECORD_AND_SAMPLED` of @opentelemetry/sdk-trace-base, which is loaded only with the SDK (trace-sdk.ts). */
const RECORD_AND_SAMPLED = 2;

const DROP_WARNING_EVERY_MS = 30_000;
/** W3C trace context: a longer tracestate may be dropped. */
const MAX_TRACESTATE_CHARS = 512;

/** The client's `tracestate` as W3C trace context has it handed on: its valid members (at most 32), or none. */
function validTraceState(raw: string | undefined): string | undefined {
  if (!raw || raw.length > MAX_TRACESTATE_CHARS) return undefined;
  return new TraceState(raw).serialize() || undefined;
}

export interface GatewayTracingOptions {
  /** The OTEL_* variables (absent: nothing is exported). */
  settings: TraceSettings | undefined;
  version: string;
  instanceId: string;
  log: { warn(object: object, message: string): void };
  /** Where trace and span ids come from. */
  ids: IdGenerator;
  /** The OpenTelemetry SDK's sampler and exporter, loaded by composition when `needsTraceSdk(settings)`. */
  sdk?: TraceSdk;
}

/** The live setting of whether message contents go on spans (server.trace_content): the settings service. */
export interface ContentCaptureSetting {
  live(): { traceContent: boolean };
}

/**
 * The traces of one gateway, built in composition. Every request is a trace: its spans are recorded
 * for the request log whether or not anything is exported (a few small objects per request, so the
 * plain path stays cheap), and, when an OTLP endpoint is set, each sampled span is handed to the
 * OpenTelemetry SDK's batch processor and exporter as it ends. The stage running now (the parent of
 * the next span) is kept in an AsyncLocalStorage of this object, entered around each route's
 * handler (http/request-tracing.ts) and each stage that has children; nothing is registered globally.
 */
export class GatewayTracing implements StageTracer {
  private readonly current = new AsyncLocalStorage<TraceSpan>();
  private readonly sampler: Sampler | undefined;
  private readonly otlp: OtlpSpanExport | undefined;
  private readonly exportSpan: ((span: TraceSpan) => void) | undefined;
  private readonly dropped: Counter;
  private droppedSinceWarning = 0;
  private warningTimer: NodeJS.Timeout | undefined;
  /** Composition builds the settings after the tracing, and hands them over with `readContentCaptureFrom`. */
  private contentCapture: ContentCaptureSetting | undefined;

  constructor(private readonly options: GatewayTracingOptions) {
    const { settings, sdk } = options;
    // The default (`parentbased_always_on`) is decided without the SDK.
    if (settings && sdk && settings.sampler.kind !== 'parentbased_always_on')
      this.sampler = sdk.samplerOf(settings.sampler);
    this.dropped = new Counter({
      name: 'switchyard_trace_spans_dropped_total',
      help: 'Spans that could not be exported: the queue for the collector was full, or the collector failed or refused them.',
      registers: [],
    });
    for (const warning of settings?.warnings ?? []) options.log.warn({}, `traces: ${warning}`);
    if (settings?.export) {
      if (!sdk) throw new Error('GatewayTracing: exporting traces needs the SDK (trace-sdk.ts)');
      this.otlp = new sdk.OtlpSpanExport(
        settings.export,
        // The gateway's own attributes over OTEL_RESOURCE_ATTRIBUTES', as the resource specification merges them.
        sdk.traceResource(settings, options.version, options.instanceId),
        { name: 'switchyard', version: options.version },
        (count) => this.countDropped(count),
      );
      const otlp = this.otlp;
      this.exportSpan = (span) => otlp.export(span);
    }
  }

  readContentCaptureFrom(setting: ContentCaptureSetting): void {
    this.contentCapture = setting;
  }

  /** Whether message contents go on spans now (off until the settings are handed over). */
  captureContent(): boolean {
    return this.contentCapture?.live().traceContent ?? false;
  }

  /** Exposes the dropped-span counter (switchyard_trace_spans_dropped_total) on the gateway's /metrics. */
  countDroppedSpansIn(registry: Registry): void {
    registry.registerMetric(this.dropped);
  }

  /** Whether spans leave the process (an OTLP endpoint is set). */
  get exporting(): boolean {
    return this.otlp !== undefined;
  }

  /**
   * The server span of a request: a new trace, or the client's continued when it sent a valid
   * `traceparent` (its `tracestate` is kept and handed on).
   */
  startRequest(
    name: string,
    attributes: SpanAttributes,
    traceparent: string | undefined,
    tracestate: string | undefined,
  ): TraceSpan {
    const parent = traceparent ? parseTraceParent(traceparent) : null;
    const { ids } = this.options;
    const traceId = parent?.traceId ?? ids.traceId();
    const sampled = this.sampler
      ? this.sampler.shouldSample(
          parent ? trace.setSpanContext(ROOT_CONTEXT, { ...parent, isRemote: true }) : ROOT_CONTEXT,
          traceId,
          name,
          SpanKind.SERVER,
          attributes,
          [],
        ).decision === RECORD_AND_SAMPLED
      : // parentbased_always_on: the client's decision, else sampled.
        !parent || (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
    const remote = parent
      ? {
          spanId: parent.spanId,
          traceState: validTraceState(tracestate),
        }
      : undefined;
    const requestTrace = new RequestTrace(traceId, ids.hex(12), sampled, remote, sampled ? this.exportSpan : undefined);
    return requestTrace.start(name, undefined, attributes, 'server');
  }

  /** A span under the stage running now (none outside a traced request). */
  start(name: string, attributes?: SpanAttributes, kind: 'internal' | 'client' = 'internal'): TraceSpan | undefined {
    const parent = this.current.getStore();
    return parent?.trace.start(name, parent, attributes, kind);
  }

  /** The stage running now. */
  active(): TraceSpan | undefined {
    return this.current.getStore();
  }

  within<T>(span: StageSpan | undefined, work: () => T): T {
    return span instanceof TraceSpan ? this.current.run(span, work) : work();
  }

  /** Sends the spans still queued for the collector (at close). */
  close(): Promise<void> {
    clearTimeout(this.warningTimer);
    return this.otlp?.shutdown() ?? Promise.resolve();
  }

  private countDropped(count: number): void {
    this.dropped.inc(count);
    this.droppedSinceWarning += count;
    if (this.warningTimer) return;
    this.warn();
    // At most one warning every 30 s, with what was dropped in between.
    this.warningTimer = setTimeout(() => {
      this.warningTimer = undefined;
      if (this.droppedSinceWarning > 0) this.countDropped(0);
    }, DROP_WARNING_EVERY_MS);
    this.warningTimer.unref();
  }

  private warn(): void {
    const url = this.options.settings?.export?.url;
    this.options.log.warn(
      { droppedSpans: this.droppedSinceWarning, collector: url },
      `traces: ${this.droppedSinceWarning} spans could not be exported to ${url} (the collector is down, slow or refusing them); requests are not affected. See switchyard_trace_spans_dropped_total.`,
    );
    this.droppedSinceWarning = 0;
  }
}
