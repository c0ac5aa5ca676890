import { Type, type Static } from '@sinclair/typebox';

export const AnalyzeBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    image: Type.String({ minLength: 1, description: 'A data URL, bare base64, or an http(s) URL.' }),
    prompt: Type.String({ minLength: 1, maxLength: 32_000 }),
  },
  { additionalProperties: true },
);
export type AnalyzeImageRequest = Static<typeof AnalyzeBody>;

export const Analysis = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('vision.analysis'),
    model: Type.String(),
    analysis: Type.String(),
    created: Type.Integer(),
    method: Type.String({
      description:
        'vision_model: an upstream vision-language route; local_with_chat: local facts explained by a chat route; local: local facts only.',
    }),
    details: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type ImageAnalysis = Static<typeof Analysis>;
