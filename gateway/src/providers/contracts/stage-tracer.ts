/** A span attribute's value, as OpenTelemetry allows it. */
export type SpanAttributeValue = string | number | boolean | string[] | number[] | boolean[];
export type SpanAttributes = Record<string, SpanAttributeValue>;

/** One timed stage of a request: an OpenTelemetry span of the request's trace. */
export interface StageSpan {
  set(name: string, value: SpanAttributeValue): void;
  event(name: string, attributes?: SpanAttributes): void;
  /** Marks the stage failed with the error's message (and, for a `ProviderError`, its kind). */
  fail(error: unknown): void;
  /** Ends it (a second call changes nothing). */
  end(): void;
  /** The W3C `traceparent` naming this span, for a request this stage sends. */
  readonly traceparent: string;
  /** The W3C `tracestate` the request's client sent (a continued trace), to hand on with `traceparent`. */
  readonly tracestate: string | undefined;
}

/**
 * How a stage (a provider's upstream call, an engine's queue wait or generation, an OCR page) records
 * its span in the request that runs it; the gateway's tracing (core/tracing) implements it.
 */
export interface StageTracer {
  /** A span under the stage running now, or undefined outside a traced request (start-up warm-up). */
  start(name: string, attributes?: SpanAttributes, kind?: 'internal' | 'client'): StageSpan | undefined;
  /** Runs `work` with `span` as the parent of the spans started within it (and its awaits). */
  within<T>(span: StageSpan | undefined, work: () => T): T;
}
