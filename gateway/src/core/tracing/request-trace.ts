import type { SpanAttributes, SpanAttributeValue, StageSpan } from '../../providers/contracts/stage-tracer.js';
import { ProviderError } from '../../providers/_shared/provider-error.js';
import type { RecordedSpan } from '../../wire/request-log-entry-schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import { randomHex } from '../ids/ids.js';

/** The request log keeps at most this many spans of one request; the rest are counted on its server span. */
export const MAX_RECORDED_SPANS = 200;
const MAX_STATUS_MESSAGE_CHARS = 500;

/** Milliseconds kept to the microsecond: the log's JSON stays short. */
function micro(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * One span of a request's trace. It is recorded as the request log keeps it (`record`, a
 * RecordedSpan) and handed to the OpenTelemetry SDK's exporter only when traces are exported.
 */
export class TraceSpan implements StageSpan {
  readonly record: RecordedSpan;
  private readonly startedAt: number;

  constructor(
    readonly trace: RequestTrace,
    name: string,
    kind: RecordedSpan['kind'],
    parent: TraceSpan | undefined,
    attributes: SpanAttributes,
    /** When it began (`performance.now()`), if before now. */
    startedAt = performance.now(),
  ) {
    this.startedAt = startedAt;
    this.record = {
      trace_id: trace.traceId,
      span_id: trace.nextSpanId(),
      parent_span_id: parent?.record.span_id,
      name,
      kind,
      start_time_ms: micro(performance.timeOrigin + this.startedAt),
      duration_ms: -1,
      status: 'unset',
      attributes,
    };
  }

  get ended(): boolean {
    return this.record.duration_ms >= 0;
  }

  get traceparent(): string {
    return `00-${this.record.trace_id}-${this.record.span_id}-${this.trace.sampled ? '01' : '00'}`;
  }

  set(name: string, value: SpanAttributeValue): void {
    this.record.attributes[name] = value;
  }

  event(name: string, attributes?: SpanAttributes): void {
    (this.record.events ??= []).push({
      name,
      time_ms: micro(performance.timeOrigin + performance.now()),
      ...(attributes ? { attributes } : {}),
    });
  }

  fail(error: unknown): void {
    this.record.status = 'error';
    const message = error instanceof Error ? error.message : String(error);
    this.record.status_message = message.slice(0, MAX_STATUS_MESSAGE_CHARS);
    this.record.attributes['error.type'] =
      error instanceof GatewayError
        ? error.code
        : error instanceof ProviderError
          ? (error.code ?? error.kind)
          : error instanceof Error
            ? error.name
            : 'error';
  }

  end(): void {
    if (this.ended) return;
    this.record.duration_ms = micro(performance.now() - this.startedAt);
    this.trace.finished(this);
  }
}

/**
 * The spans of one request within the gateway: its id, whether it is sampled for export, the
 * client's span it continues, and the finished spans the request log keeps (at most
 * MAX_RECORDED_SPANS; `dropped` counts the others).
 */
export class RequestTrace {
  readonly spans: RecordedSpan[] = [];
  dropped = 0;
  /** The request's GenAI operation (its first model call): it ends with the request, which adds the usage. */
  operation: TraceSpan | undefined;
  /** The guardrails that matched (`stage:rule:action`), for the request log entry. */
  readonly guardrails: string[] = [];
  /**
   * Span ids are 12 random hex digits drawn once per request, then a count: unique within the trace
   * (which is all a span id must be), never zero, and one random draw per request instead of one per span.
   */
  private readonly spanIdBase = randomHex(6);
  private spanCount = 0;

  constructor(
    readonly traceId: string,
    readonly sampled: boolean,
    /** The client's span this trace continues (its `traceparent`), and its `tracestate`. */
    readonly remote: { spanId: string; traceState: string | undefined } | undefined,
    private readonly onEnd: ((span: TraceSpan) => void) | undefined,
  ) {}

  start(
    name: string,
    parent: TraceSpan | undefined,
    attributes: SpanAttributes = {},
    kind: RecordedSpan['kind'] = 'internal',
    startedAt?: number,
  ): TraceSpan {
    return new TraceSpan(this, name, kind, parent, attributes, startedAt);
  }

  noteGuardrail(match: string): void {
    if (!this.guardrails.includes(match)) this.guardrails.push(match);
  }

  nextSpanId(): string {
    this.spanCount = (this.spanCount + 1) & 0xffff || 1;
    return this.spanIdBase + this.spanCount.toString(16).padStart(4, '0');
  }

  finished(span: TraceSpan): void {
    if (this.spans.length < MAX_RECORDED_SPANS) this.spans.push(span.record);
    else this.dropped++;
    this.onEnd?.(span);
  }
}
