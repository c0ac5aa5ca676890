import { Type, type Static } from '@sinclair/typebox';

export const Entry = Type.Object({
  id: Type.String(),
  time: Type.Number(),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  latency_ms: Type.Number(),
  key_prefix: Type.Union([Type.String(), Type.Null()]),
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
});
export type RequestLogEntry = Static<typeof Entry>;
