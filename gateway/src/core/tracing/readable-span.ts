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
  const record = span.record;
  const { trace } = span;
  const traceFlags = trace.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE;
  const traceState = trace.remote?.traceState ? new TraceState(trace.remote.traceState) : undefined;
  const parentSpanId = record.parent_span_id ?? trace.remote?.spanId;
  return {
    name: record.name,
    kind: KINDS[record.kind],
    spanContext: () => ({ traceId: record.trace_id, spanId: record.span_id, traceFlags, traceState }),
    parentSpanContext: parentSpanId
      ? { traceId: record.trace_id, spanId: parentSpanId, traceFlags, isRemote: !record.parent_span_id }
      : undefined,
    startTime: hrTime(record.start_time_ms),
    endTime: hrTime(record.start_time_ms + record.duration_ms),
    duration: hrTime(record.duration_ms),
    status: { code: STATUSES[record.status], message: record.status_message },
    attributes: record.attributes,
    links: [],
    events: (record.events ?? []).map((event) => ({
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
