import { Type, type Static } from '@sinclair/typebox';
import { SamplingFields } from '../_shared/sampling-schema.js';
import { Usage } from '../../wire/usage-schema.js';

export const CompletionBody = Type.Object(
  {
    ...SamplingFields,
    prompt: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 64 })]),
    suffix: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);
export type CompletionRequest = Static<typeof CompletionBody>;

export const TextCompletion = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('text_completion'),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        text: Type.String(),
        finish_reason: Type.Union([Type.String(), Type.Null()]),
        logprobs: Type.Null(),
      }),
    ),
    usage: Usage,
  },
  { additionalProperties: true },
);
export type TextCompletion = Static<typeof TextCompletion>;
