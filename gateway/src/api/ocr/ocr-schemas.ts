import { SpecOcrTableSchema } from '../../wire/ocr-table-schema.js';
import { Type, type Static } from '@sinclair/typebox';
import { MissingFieldSchema, MistralOcrResponseSchema } from '../../wire/mistral-ocr-response-schema.js';
import { UsageWith } from '../../wire/usage-schema.js';
import { PageLanguageFields } from '../../wire/ocr-page-language-schema.js';

export const Granularity = Type.Union([Type.Literal('word'), Type.Literal('line'), Type.Literal('block')], {
  default: 'word',
});

const MistralDocument = Type.Union([
  Type.Object(
    { type: Type.Literal('document_url'), document_url: Type.String({ minLength: 1 }) },
    { additionalProperties: true },
  ),
  Type.Object(
    {
      type: Type.Literal('image_url'),
      image_url: Type.Union([Type.String({ minLength: 1 }), Type.Object({ url: Type.String({ minLength: 1 }) })]),
    },
    { additionalProperties: true },
  ),
  Type.Object(
    {
      type: Type.Literal('file'),
      file_id: Type.String({ minLength: 1, description: 'The id of a file uploaded with POST /v1/files.' }),
    },
    { additionalProperties: true },
  ),
]);

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** Mistral's response_format for annotations: only a json_schema is meaningful. */
const AnnotationFormat = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('json_schema'), Type.Literal('json_object'), Type.Literal('text')])),
    json_schema: Type.Optional(
      Nullable(
        Type.Object(
          {
            name: Type.String(),
            description: Type.Optional(Nullable(Type.String())),
            schema: Type.Record(Type.String(), Type.Unknown()),
            strict: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: true },
        ),
      ),
    ),
  },
  { additionalProperties: true },
);

export const OcrBody = Type.Object(
  {
    model: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    image: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'A data URL, bare base64, or an http(s) URL of an image (PNG, JPEG, WebP, TIFF, BMP, GIF) or a PDF.',
      }),
    ),
    document: Type.Optional(MistralDocument),
    id: Type.Optional(Type.String({ description: "Mistral's request id; accepted and ignored." })),
    return_bboxes: Type.Optional(Type.Boolean({ default: true })),
    structured_output: Type.Optional(Type.Boolean()),
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    granularity: Type.Optional(Granularity),
    include_tables: Type.Optional(
      Type.Boolean({
        description:
          "SPEC's form (an extension): each page's tables in `pages[].tables`, with cell texts and cell boxes (Mistral's form has them in its table blocks).",
      }),
    ),
    pages: Type.Optional(
      Nullable(
        Type.Union([Type.Array(Type.Integer({ minimum: 0 }), { maxItems: 1000 }), Type.String({ maxLength: 10_000 })], {
          description: "0-based page indices of a PDF: a list, or text like '0,2-4'.",
        }),
      ),
    ),
    languages: Type.Optional(
      Nullable(
        Type.Array(Type.String({ minLength: 2, maxLength: 20, pattern: '^[A-Za-z_-]+$' }), {
          minItems: 1,
          maxItems: 8,
          description:
            "Not in Mistral's API: the document's languages (Tesseract's codes like fra, rus, chi_sim, or ISO 639-1 like fr), read with their models and no detection. Absent: each page's language is detected.",
        }),
      ),
    ),
    include_image_base64: Type.Optional(
      Nullable(Type.Boolean({ description: "Mistral form: each figure's crop as a data URL in image_base64." })),
    ),
    image_limit: Type.Optional(
      Nullable(Type.Integer({ minimum: 0, description: 'Mistral form: most figures to return over the document.' })),
    ),
    image_min_size: Type.Optional(
      Nullable(Type.Integer({ minimum: 0, description: 'Mistral form: smallest figure width and height, in pixels.' })),
    ),
    table_format: Type.Optional(
      Nullable(
        Type.Union([Type.Literal('markdown'), Type.Literal('html')], {
          description:
            'Mistral form: tables apart in `tables`, linked from the markdown; null keeps them inline as Markdown.',
        }),
      ),
    ),
    extract_header: Type.Optional(
      Type.Boolean({ description: 'Mistral form: the running header in `header`, out of the markdown.' }),
    ),
    extract_footer: Type.Optional(
      Type.Boolean({ description: 'Mistral form: the running footer in `footer`, out of the markdown.' }),
    ),
    include_blocks: Type.Optional(Type.Boolean({ description: 'Mistral form: typed regions with boxes in `blocks`.' })),
    confidence_scores_granularity: Type.Optional(
      Nullable(Type.Union([Type.Literal('page'), Type.Literal('word'), Type.Literal('block')])),
    ),
    document_annotation_format: Type.Optional(Nullable(AnnotationFormat)),
    document_annotation_prompt: Type.Optional(Nullable(Type.String({ maxLength: 20_000 }))),
    bbox_annotation_format: Type.Optional(Nullable(AnnotationFormat)),
  },
  { additionalProperties: true },
);
export type OcrBodyType = Static<typeof OcrBody>;

export const OcrBox = Type.Object({
  text: Type.String(),
  bbox: Type.Array(Type.Number(), {
    minItems: 4,
    maxItems: 4,
    description: '[x1, y1, x2, y2] in pixels of the page image, top-left origin (x2, y2 exclusive).',
  }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  page: Type.Integer({ description: '0-based page index.' }),
});

export const SpecOcrResultSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('ocr.result'),
    model: Type.String(),
    text: Type.Optional(Type.String()),
    bboxes: Type.Optional(Type.Array(OcrBox)),
    structured_data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    pages: Type.Optional(
      Type.Array(
        Type.Object({
          index: Type.Integer(),
          width: Type.Integer(),
          height: Type.Integer(),
          text: Type.String(),
          source: Type.Union([Type.Literal('ocr'), Type.Literal('text_layer')]),
          tables: Type.Optional(Type.Array(SpecOcrTableSchema, { description: 'With include_tables.' })),
          ...PageLanguageFields,
        }),
      ),
    ),
    granularity: Type.Optional(Type.String()),
    structured_method: Type.Optional(Type.String({ description: 'language_model | extractor | layout' })),
    structured_model: Type.Optional(
      Type.String({ description: 'The chat model that filled structured_data (structured_method language_model).' }),
    ),
    structured_note: Type.Optional(
      Type.String({
        description: 'Who filled structured_data; for the rule-based extractor, why no language model did.',
      }),
    ),
    structured_missing: Type.Optional(
      Type.Array(MissingFieldSchema, { description: 'The schema fields left null in structured_data, and why.' }),
    ),
    usage: Type.Optional(
      UsageWith({}, { description: "The chat model's tokens for a schema fill (billed); zero for the extractor." }),
    ),
  },
  { additionalProperties: false },
);

/** SPEC's result for the `image` form, Mistral's pages for the `document` form. */
export const OcrResultSchema = Type.Union([SpecOcrResultSchema, MistralOcrResponseSchema]);

export const RenderPageBody = Type.Object({
  image: Type.String({ minLength: 1 }),
  page: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  width: Type.Optional(Type.Integer({ minimum: 16, maximum: 20_000 })),
});
export const RenderedPage = Type.Object({
  page: Type.Integer(),
  page_count: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  image: Type.String(),
});
export type RenderedPage = Static<typeof RenderedPage>;
