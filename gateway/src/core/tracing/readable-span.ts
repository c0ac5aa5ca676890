import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import { TraceState, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RecordedSpan } from '../../wire/request-log-entry-schema.js';
import type { TraceSpan } from './request-trace.js';

const KINDS: Record<RecordedSpan['kind'], SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};
const STATUSES: Record<RecordedSpan['status'], SpanStatusCode> = {
  unset: SpanStatusCode.UNSET,
  ok: SpanStatusCode.OK,
  error: SpanStatusCode.ERROR,
};

/** Milliseconds (Unix time or a duration) as OpenTelemetry's [seconds, nanoseconds]. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}

/** A finished span as the SDK's span processors and exporters read it. */
export function readableSpan(span: TraceSpan, resource: Resource, scope: InstrumentationScope): ReadableSpan {
  const { trace } = span;
  const traceFlags = trace.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE;
  const traceState = trace.remote?.traceState ? new TraceState(trace.remote.traceState) : undefined;
  const parentSpanId = span.parent_span_id ?? trace.remote?.spanId;
  return {
    name: span.name,
    kind: KINDS[span.kind],
    spanContext: () => ({ traceId: span.trace_id, spanId: span.span_id, traceFlags, traceState }),
    parentSpanContext: parentSpanId
      ? { traceId: span.trace_id, spanId: parentSpanId, traceFlags, isRemote: !span.parent }
      : undefined,
    startTime: hrTime(span.start_time_ms),
    endTime: hrTime(span.start_time_ms + span.duration_ms),
    duration: hrTime(span.duration_ms),
    status: { code: STATUSES[span.status], message: span.status_message },
    attributes: span.attributes,
    links: [],
    events: (span.events ?? []).map((event) => ({
      name: event.name,
      time: hrTime(event.time_ms),
      attributes: event.attributes,
    })),
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
