import { Type, type Static } from '@sinclair/typebox';

/** OpenAI's and Mistral's range for presence_penalty and frequency_penalty. */
const Penalty = Type.Number({ minimum: -2, maximum: 2 });
const Stop = Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 16 }), Type.Null()]);

/** Parameters chat and text completions share, with the spellings OpenAI and Mistral clients send. */
export const SamplingFields = {
  model: Type.Optional(Type.String({ minLength: 1 })),
  max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  max_completion_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
  top_p: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  stop: Type.Optional(Stop),
  n: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 16 }), Type.Null()])),
  seed: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  random_seed: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  presence_penalty: Type.Optional(Type.Union([Penalty, Type.Null()])),
  frequency_penalty: Type.Optional(Type.Union([Penalty, Type.Null()])),
  stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  stream_options: Type.Optional(
    Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }), Type.Null()]),
  ),
};

export type SamplingBody = { [Field in keyof typeof SamplingFields]?: Static<(typeof SamplingFields)[Field]> };

const defined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** The provider-facing sampling parameters, whichever camp's spelling the client used. */
export function samplingParams(body: SamplingBody) {
  const stop = defined(body.stop);
  return {
    max_tokens: defined(body.max_tokens) ?? defined(body.max_completion_tokens),
    temperature: defined(body.temperature),
    top_p: defined(body.top_p),
    stop: stop === undefined ? undefined : Array.isArray(stop) ? stop : [stop],
    n: defined(body.n),
    seed: defined(body.seed) ?? defined(body.random_seed),
    presence_penalty: defined(body.presence_penalty),
    frequency_penalty: defined(body.frequency_penalty),
  };
}
