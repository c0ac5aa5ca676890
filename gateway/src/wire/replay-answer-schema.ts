import { Type, type Static } from '@sinclair/typebox';

/** What `POST /console/requests/{id}/replay` asks: the same request again, to its model or another. */
export const ReplayRequest = Type.Object(
  {
    model: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The model to send the request to instead of the one it named (any model /v1/models lists).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReplayRequest = Static<typeof ReplayRequest>;

/** The replayed request: its own id in the request log, how it went, what it cost, and its answer. */
export const ReplayAnswer = Type.Object({
  object: Type.Literal('request.replay'),
  request_id: Type.String({ description: "The new request's id (the request log lists it, tagged client `replay`)." }),
  replay_of: Type.String({ description: 'The id of the logged request that was sent again.' }),
  status: Type.Integer({ description: "The replayed request's HTTP status (an error's body is in `body`)." }),
  model: Type.Union([Type.String(), Type.Null()], { description: 'The model that answered, or the one asked for.' }),
  stream: Type.Boolean({
    description: 'The original was streamed: so was the replay, and `body` is put back together.',
  }),
  latency_ms: Type.Number({
    description: 'Milliseconds from sending the request again until its answer was read whole.',
  }),
  ttft_ms: Type.Optional(Type.Number({ description: 'A stream: milliseconds until its first frame.' })),
  usage: Type.Union([
    Type.Object({
      prompt_tokens: Type.Union([Type.Integer(), Type.Null()]),
      completion_tokens: Type.Union([Type.Integer(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  cost: Type.Union([Type.Number(), Type.Null()], {
    description: "Charged to the calling key, in the account's currency.",
  }),
  body: Type.Unknown({
    description:
      'The answer: its JSON, or for a stream one answer made of its frames (a chat.completion, a text_completion, or the final response of a Responses stream).',
  }),
  error: Type.Optional(
    Type.Object(
      { code: Type.String(), message: Type.String() },
      { description: 'The error frame of a stream that failed after it started (its status stays 200).' },
    ),
  ),
});
export type ReplayAnswer = Static<typeof ReplayAnswer>;
