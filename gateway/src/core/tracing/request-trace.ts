import type { SpanAttributes, SpanAttributeValue, StageSpan } from '../../providers/contracts/stage-tracer.js';
import { ProviderError } from '../../providers/_shared/provider-error.js';
import type { RecordedSpan } from '../../wire/request-log-entry-schema.js';
import { GatewayError } from '../errors/gateway-error.js';

/** The request log keeps at most this many spans of one request; the rest are counted on its server span. */
export const MAX_RECORDED_SPANS = 200;
const MAX_STATUS_MESSAGE_CHARS = 500;

type SpanEvent = NonNullable<RecordedSpan['events']>[number];

const TIME_ORIGIN = performance.timeOrigin;

/** Milliseconds kept to the microsecond: the log's JSON stays short. */
function micro(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Whole microseconds: small integers, which an object holds in place where a fraction is an object of its own. */
function micros(ms: number): number {
  return Math.round(ms * 1000);
}

/**
 * One span of a request's trace, which is also how the request log keeps it: it reads as a
 * RecordedSpan (its ids, Unix times and status are worked out when read, and `toJSON` gives the
 * plain form), so recording a stage costs one object. The OpenTelemetry SDK's exporter gets it only
 * when traces are exported.
 */
export class TraceSpan implements StageSpan, RecordedSpan {
  private readonly ordinal: number;
  private id: string | undefined;
  /** Microseconds from the trace's origin. */
  private readonly start: number;
  /** Microseconds, or -1 until it ends. */
  private duration = -1;
  private state: RecordedSpan['status'] = 'unset';
  private message: string | undefined;
  private eventList: SpanEvent[] | undefined;
  /**
   * Attributes set after the start, as name, value, name, value, joined into the start's object when
   * read: a property added to each span's object went through V8's slowest stores (docs/observability.md).
   */
  private later: (string | SpanAttributeValue)[] | undefined;

  constructor(
    readonly trace: RequestTrace,
    readonly name: string,
    readonly kind: RecordedSpan['kind'],
    readonly parent: TraceSpan | undefined,
    private readonly initial: SpanAttributes,
    /** When it began (`performance.now()`), if before now. */
    startedAt = performance.now(),
  ) {
    this.ordinal = trace.nextOrdinal();
    this.start = micros(startedAt - trace.origin);
  }

  get trace_id(): string {
    return this.trace.traceId;
  }

  get span_id(): string {
    return (this.id ??= this.trace.spanId(this.ordinal));
  }

  get parent_span_id(): string | undefined {
    return this.parent?.span_id;
  }

  get start_time_ms(): number {
    return micro(TIME_ORIGIN + this.trace.origin + this.start / 1000);
  }

  get duration_ms(): number {
    return this.duration < 0 ? -1 : this.duration / 1000;
  }

  get status(): RecordedSpan['status'] {
    return this.state;
  }

  get status_message(): string | undefined {
    return this.message;
  }

  get events(): SpanEvent[] | undefined {
    return this.eventList;
  }

  get ended(): boolean {
    return this.duration >= 0;
  }

  get traceparent(): string {
    return `00-${this.trace.traceId}-${this.span_id}-${this.trace.sampled ? '01' : '00'}`;
  }

  get tracestate(): string | undefined {
    return this.trace.remote?.traceState;
  }

  get attributes(): SpanAttributes {
    const later = this.later;
    if (later) {
      this.later = undefined;
      for (let i = 0; i < later.length; i += 2) this.initial[later[i] as string] = later[i + 1];
    }
    return this.initial;
  }

  set(name: string, value: SpanAttributeValue): void {
    (this.later ??= []).push(name, value);
  }

  event(name: string, attributes?: SpanAttributes): void {
    (this.eventList ??= []).push({
      name,
      time_ms: micro(TIME_ORIGIN + performance.now()),
      ...(attributes ? { attributes } : {}),
    });
  }

  fail(error: unknown): void {
    this.state = 'error';
    const message = error instanceof Error ? error.message : String(error);
    this.message = message.slice(0, MAX_STATUS_MESSAGE_CHARS);
    this.set(
      'error.type',
      error instanceof GatewayError
        ? error.code
        : error instanceof ProviderError
          ? (error.code ?? error.kind)
          : error instanceof Error
            ? error.name
            : 'error',
    );
  }

  /** A failure known only by its status (a 5xx answer): no message. */
  failWithType(type: string): void {
    this.state = 'error';
    this.set('error.type', type);
  }

  end(): void {
    if (this.ended) return;
    this.duration = Math.max(0, micros(performance.now() - this.trace.origin) - this.start);
    this.trace.finished(this);
  }

  toJSON(): RecordedSpan {
    return {
      trace_id: this.trace_id,
      span_id: this.span_id,
      ...(this.parent ? { parent_span_id: this.parent.span_id } : {}),
      name: this.name,
      kind: this.kind,
      start_time_ms: this.start_time_ms,
      duration_ms: this.duration_ms,
      status: this.state,
      ...(this.message !== undefined ? { status_message: this.message } : {}),
      attributes: this.attributes,
      ...(this.eventList ? { events: this.eventList } : {}),
    };
  }
}

/**
 * The spans of one request within the gateway: its id, whether it is sampled for export, the
 * client's span it continues, and the finished spans the request log keeps (at most
 * MAX_RECORDED_SPANS; `dropped` counts the others).
 */
export class RequestTrace {
  readonly spans: TraceSpan[] = [];
  dropped = 0;
  /** The request's GenAI operation (its first model call): it ends with the request, which adds the usage. */
  operation: TraceSpan | undefined;
  /** The guardrails that matched (`stage:rule:action`), for the request log entry. */
  readonly guardrails: string[] = [];
  private spanCount = 0;
  /** When the trace began here (`performance.now()`): its spans' times are whole microseconds from it. */
  readonly origin = performance.now();

  constructor(
    readonly traceId: string,
    /**
     * Span ids are these 12 random hex digits, drawn once per request, then a count: unique within the
     * trace (which is all a span id must be), never zero, and one random draw per request instead of one per span.
     */
    private readonly spanIdBase: string,
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

  /** The count part of the next span's id (1 to 0xffff, then round again). */
  nextOrdinal(): number {
    this.spanCount = (this.spanCount + 1) & 0xffff || 1;
    return this.spanCount;
  }

  spanId(ordinal: number): string {
    return this.spanIdBase + (0x10000 + ordinal).toString(16).slice(1);
  }

  finished(span: TraceSpan): void {
    if (this.spans.length < MAX_RECORDED_SPANS) this.spans.push(span);
    else this.dropped++;
    this.onEnd?.(span);
  }
}
