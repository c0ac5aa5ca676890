import { Type, type Static } from '@sinclair/typebox';

export const Granularity = Type.Union([Type.Literal('word'), Type.Literal('line'), Type.Literal('block')], { default: 'word' });

const MistralDocument = Type.Union([
  Type.Object({ type: Type.Literal('document_url'), document_url: Type.String({ minLength: 1 }) }, { additionalProperties: true }),
  Type.Object({ type: Type.Literal('image_url'), image_url: Type.Union([Type.String({ minLength: 1 }), Type.Object({ url: Type.String({ minLength: 1 }) })]) }, { additionalProperties: true }),
]);

export const OcrBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    image: Type.Optional(Type.String({ minLength: 1, description: 'A data URL, bare base64, or an http(s) URL of an image (PNG, JPEG, WebP, TIFF, BMP, GIF) or a PDF.' })),
    document: Type.Optional(MistralDocument),
    return_bboxes: Type.Optional(Type.Boolean({ default: true })),
    structured_output: Type.Optional(Type.Boolean()),
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    granularity: Type.Optional(Granularity),
    pages: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { maxItems: 1000, description: '0-based page indices of a PDF.' })),
  },
  { additionalProperties: true },
);
export type OcrBodyType = Static<typeof OcrBody>;

const Box = Type.Object({
  text: Type.String(),
  bbox: Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[x1, y1, x2, y2] in pixels of the page image, top-left origin (x2, y2 exclusive).' }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  page: Type.Integer({ description: '0-based page index.' }),
});

export const OcrResultSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('ocr.result'),
    model: Type.String(),
    text: Type.Optional(Type.String()),
    bboxes: Type.Optional(Type.Array(Box)),
    structured_data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    pages: Type.Optional(
      Type.Array(Type.Object({ index: Type.Integer(), width: Type.Integer(), height: Type.Integer(), text: Type.String(), source: Type.String({ description: 'ocr | text_layer' }) })),
    ),
    granularity: Type.Optional(Type.String()),
    structured_method: Type.Optional(Type.String({ description: 'language_model | extractor | layout' })),
  },
  { additionalProperties: false },
);
