import { Type, type Static } from '@sinclair/typebox';

export const GenerateBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    prompt: Type.String({ minLength: 1, maxLength: 32_000 }),
    size: Type.Optional(Type.String({ pattern: '^[0-9]+x[0-9]+$', default: '1024x1024' })),
    n: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    response_format: Type.Optional(Type.Union([Type.Literal('url'), Type.Literal('b64_json')], { default: 'url' })),
  },
  { additionalProperties: true },
);
export type GenerateImagesRequest = Static<typeof GenerateBody>;

export const ImageResult = Type.Object({
  id: Type.String(),
  object: Type.Literal('vision.image'),
  created: Type.Integer(),
  model: Type.String(),
  data: Type.Array(
    Type.Object({
      url: Type.String({
        description: 'Always present: the stored image on this gateway (authenticated), valid while the file exists.',
      }),
      b64_json: Type.Optional(Type.String({ description: 'Present only when response_format is b64_json.' })),
      file_id: Type.String(),
      revised_prompt: Type.Optional(Type.String()),
    }),
  ),
});
export type GeneratedImages = Static<typeof ImageResult>;
