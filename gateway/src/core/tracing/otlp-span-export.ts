import { createNoopMeter, type Meter, type MeterProvider } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type BufferConfig } from '@opentelemetry/sdk-trace-base';
import type { TraceSettings } from '../../config/trace-settings.js';
import { readableSpan } from './readable-span.js';
import type { TraceSpan } from './request-trace.js';

/** Spans waiting for the collector; past this they are dropped (and counted), never held without end. */
const MAX_QUEUED_SPANS = 4096;
const MAX_BATCH_SPANS = 512;
/** A stopping gateway gives the collector this long for what is still queued. */
const SHUTDOWN_WAIT_MS = 2_000;

/**
 * The span processor's own metrics (OpenTelemetry's `otel.sdk.processor.span.processed`, whose
 * `error.type` says a span was dropped: a full queue or a failed export), read into `onDropped`.
 */
function droppedSpanCounter(onDropped: (count: number) => void): MeterProvider {
  const meter: Meter = Object.create(createNoopMeter()) as Meter;
  meter.createCounter = () =>
    ({
      add(count: number, attributes?: Record<string, unknown>) {
        if (attributes?.['error.type'] !== undefined) onDropped(count);
      },
    }) as ReturnType<Meter['createCounter']>;
  return { getMeter: () => meter };
}

/**
 * Export by the OpenTelemetry SDK: its BatchSpanProcessor (a bounded queue, batches on a timer) and
 * its OTLP/HTTP exporter (protobuf or JSON). `export` only appends to the queue, so a collector that
 * is down, slow or refusing never holds up a request; what it loses is counted through `onDropped`.
 */
export class OtlpSpanExport {
  private readonly processor: BatchSpanProcessor;

  constructor(
    settings: NonNullable<TraceSettings['export']>,
    private readonly resource: Resource,
    private readonly scope: InstrumentationScope,
    onDropped: (count: number) => void,
  ) {
    const config = { url: settings.url, headers: settings.headers, timeoutMillis: settings.timeoutMs };
    const exporter =
      settings.protocol === 'http/json' ? new JsonTraceExporter(config) : new ProtobufTraceExporter(config);
    // sdk-trace-base's processor hands its whole config to the SDK's, whose options type has the meter provider.
    const processorConfig: BufferConfig & { selfObsMeterProvider: MeterProvider } = {
      maxQueueSize: MAX_QUEUED_SPANS,
      maxExportBatchSize: MAX_BATCH_SPANS,
      scheduledDelayMillis: settings.batchDelayMs,
      exportTimeoutMillis: settings.timeoutMs,
      selfObsMeterProvider: droppedSpanCounter(onDropped),
    };
    this.processor = new BatchSpanProcessor(exporter, processorConfig);
  }

  export(span: TraceSpan): void {
    this.processor.onEnd(readableSpan(span, this.resource, this.scope));
  }

  /** Sends what is queued, waiting for the collector at most SHUTDOWN_WAIT_MS, then stops. */
  async shutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.processor.shutdown().catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }
}
