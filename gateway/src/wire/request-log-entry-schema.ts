import { Type, type Static } from '@sinclair/typebox';
import { CacheNoteSchema } from './response-cache-schema.js';

/** A span's attribute value, as OpenTelemetry allows it (arrays of one primitive type). */
const AttributeValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.String()),
  Type.Array(Type.Number()),
  Type.Array(Type.Boolean()),
]);

/**
 * One finished span of a request's trace as the request log keeps it (the console's waterfall draws
 * these; an OTLP collector receives the same spans through the OpenTelemetry SDK's exporter).
 */
export const RecordedSpan = Type.Object({
  trace_id: Type.String({ description: '32 lower-case hex digits.' }),
  span_id: Type.String({ description: '16 lower-case hex digits.' }),
  parent_span_id: Type.Optional(Type.String({ description: "Absent on the request's root span within the gateway." })),
  name: Type.String(),
  kind: Type.Union([
    Type.Literal('server'),
    Type.Literal('client'),
    Type.Literal('internal'),
    Type.Literal('producer'),
    Type.Literal('consumer'),
  ]),
  start_time_ms: Type.Number({ description: 'Unix time in milliseconds, with fractions.' }),
  duration_ms: Type.Number(),
  status: Type.Union([Type.Literal('unset'), Type.Literal('ok'), Type.Literal('error')]),
  status_message: Type.Optional(Type.String()),
  attributes: Type.Record(Type.String(), AttributeValue),
  events: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String(),
        time_ms: Type.Number({ description: 'Unix time in milliseconds, with fractions.' }),
        attributes: Type.Optional(Type.Record(Type.String(), AttributeValue)),
      }),
    ),
  ),
});
export type RecordedSpan = Static<typeof RecordedSpan>;

/** One logged request, as the console's request log shows it and the store keeps it. */
export const Entry = Type.Object({
  id: Type.String(),
  time: Type.Number(),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  latency_ms: Type.Number(),
  key_prefix: Type.Union([Type.String(), Type.Null()]),
  key_id: Type.Optional(
    Type.String({ description: 'The id of the key that made the request (never the key): who may replay it.' }),
  ),
  model: Type.Union([Type.String(), Type.Null()]),
  prompt_tokens: Type.Union([Type.Integer(), Type.Null()]),
  completion_tokens: Type.Union([Type.Integer(), Type.Null()]),
  cost: Type.Union([Type.Number(), Type.Null()]),
  client: Type.Union([Type.String(), Type.Null()], {
    description: 'The X-Switchyard-Client header; the console sends `console` on its own calls.',
  }),
  error_code: Type.Optional(
    Type.String({
      description: "A failed request's error code (the `code` of its error body, or of a stream's error frame).",
    }),
  ),
  error_message: Type.Optional(
    Type.String({
      description:
        "A failed request's error message, secrets redacted, cut to 1,000 characters; kept whether or not request_log_bodies is on.",
    }),
  ),
  request_headers: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Request headers, credentials redacted.' }),
  ),
  request_body: Type.Optional(Type.String()),
  response_body: Type.Optional(Type.String()),
  instance_id: Type.Optional(
    Type.String({ description: 'The gateway instance that served the request (GATEWAY_INSTANCE_ID or generated).' }),
  ),
  trace_id: Type.Optional(Type.String({ description: "The request's OpenTelemetry trace id (32 hex digits)." })),
  ttft_ms: Type.Optional(
    Type.Number({ description: 'A stream: milliseconds from the request to its first token (or first content).' }),
  ),
  /** On a route with a response cache: hit, miss or bypass, a hit's age and a semantic hit's similarity. */
  cache: Type.Optional(CacheNoteSchema),
  guardrail_flags: Type.Optional(
    Type.Array(Type.String(), {
      description: 'The guardrails that matched, as `stage:rule:action` (input or output; block, redact or flag).',
    }),
  ),
  spans: Type.Optional(
    Type.Array(RecordedSpan, {
      description: "The request's spans within the gateway (its detail only; the list leaves them out).",
    }),
  ),
});
export type RequestLogEntry = Static<typeof Entry>;
