import { Type, type Static } from '@sinclair/typebox';
import { EmbeddingsUsage } from '../../wire/usage-schema.js';

export const Input = Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 2048 })]);

export const EmbeddingBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    input: Type.Optional(Input),
    /** Mistral's older spelling. */
    inputs: Type.Optional(Input),
    encoding_format: Type.Optional(Type.Union([Type.Literal('float'), Type.Literal('base64'), Type.Null()])),
    dimensions: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 65_536 }), Type.Null()])),
  },
  { additionalProperties: true },
);
export type EmbeddingsRequest = Static<typeof EmbeddingBody>;

export const EmbeddingList = Type.Object(
  {
    id: Type.String({ description: 'Mistral clients require an id; OpenAI clients ignore it.' }),
    object: Type.Literal('list'),
    data: Type.Array(
      Type.Object({
        object: Type.Literal('embedding'),
        embedding: Type.Union([Type.Array(Type.Number()), Type.String()]),
        index: Type.Integer(),
      }),
    ),
    model: Type.String(),
    usage: EmbeddingsUsage,
  },
  { additionalProperties: true },
);
export type EmbeddingList = Static<typeof EmbeddingList>;
