import { Type, type Static } from '@sinclair/typebox';
import { BlockLanguageField, PageLanguageFields } from './ocr-page-language-schema.js';
import { OcrTableCellSchema, TableRulingSchema } from './ocr-table-schema.js';

/**
 * Mistral's OCR response, the one source of its types (the route's response schema and the builders'
 * output): field names, required fields and nullability as Mistral's SDK validates them.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const WordConfidenceSchema = Type.Object({
  text: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  start_index: Type.Integer({
    minimum: 0,
    description: 'Where the word starts in the page markdown (or in the table content, for a table).',
  }),
});

export const BlockConfidenceSchema = Type.Object({
  average_content_confidence_score: Nullable(Type.Number()),
  minimum_content_confidence_score: Nullable(Type.Number()),
  block_type_confidence_score: Nullable(Type.Number()),
});

const TableExtensionFields = {
  continues_table_id: Type.Optional(
    Type.String({
      description:
        "Not in Mistral's API: this table continues the one on an earlier page with this id (same columns); its header row is that table's.",
    }),
  ),
};

export const OcrPageBlockSchema = Type.Object({
  type: Type.Union(
    ['title', 'text', 'list', 'table', 'caption', 'image', 'header', 'footer'].map((type) => Type.Literal(type)),
  ),
  content: Type.String(),
  top_left_x: Type.Integer(),
  top_left_y: Type.Integer(),
  bottom_right_x: Type.Integer(),
  bottom_right_y: Type.Integer(),
  confidence_scores: Type.Optional(Nullable(BlockConfidenceSchema)),
  table_id: Type.Optional(Nullable(Type.String())),
  image_id: Type.Optional(Type.String({ description: 'Present on image blocks.' })),
  cells: Type.Optional(
    Type.Array(OcrTableCellSchema, {
      description: "Not in Mistral's API: a table block's cells with their boxes, row by row.",
    }),
  ),
  table_ruling: Type.Optional(TableRulingSchema),
  ...TableExtensionFields,
  ...BlockLanguageField,
});

export const OcrImageObjectSchema = Type.Object({
  id: Type.String({ description: 'img-<n>.jpeg, numbered across the document.' }),
  top_left_x: Nullable(Type.Integer()),
  top_left_y: Nullable(Type.Integer()),
  bottom_right_x: Nullable(Type.Integer()),
  bottom_right_y: Nullable(Type.Integer()),
  image_base64: Type.Optional(
    Nullable(Type.String({ description: 'The crop as a data URL (JPEG), with include_image_base64.' })),
  ),
  image_annotation: Type.Optional(
    Nullable(Type.String({ description: 'JSON text shaped by bbox_annotation_format.' })),
  ),
});

export const OcrTableObjectSchema = Type.Object({
  id: Type.String({ description: 'tbl-<n>.md or tbl-<n>.html; the page markdown links it as [id](id).' }),
  content: Type.String(),
  format: Type.Union([Type.Literal('markdown'), Type.Literal('html')]),
  word_confidence_scores: Type.Optional(Nullable(Type.Array(WordConfidenceSchema))),
  ...TableExtensionFields,
});

export const OcrPageConfidenceSchema = Type.Object({
  average_page_confidence_score: Type.Number(),
  minimum_page_confidence_score: Type.Number(),
  word_confidence_scores: Type.Optional(Type.Array(WordConfidenceSchema)),
});

export const OcrPageObjectSchema = Type.Object({
  index: Type.Integer({ description: '0-based page index in the document.' }),
  markdown: Type.String(),
  images: Type.Array(OcrImageObjectSchema),
  tables: Type.Array(OcrTableObjectSchema),
  hyperlinks: Type.Array(Type.String()),
  header: Nullable(Type.String()),
  footer: Nullable(Type.String()),
  dimensions: Nullable(Type.Object({ dpi: Type.Integer(), height: Type.Integer(), width: Type.Integer() })),
  blocks: Type.Optional(Nullable(Type.Array(OcrPageBlockSchema))),
  confidence_scores: Type.Optional(Nullable(OcrPageConfidenceSchema)),
  ...PageLanguageFields,
});

/** A field a schema fill left null, and why (dotted path for nested fields). */
export const MissingFieldSchema = Type.Object({ field: Type.String(), reason: Type.String() });

export const MistralOcrResponseSchema = Type.Object({
  pages: Type.Array(OcrPageObjectSchema),
  model: Type.String(),
  document_annotation: Type.Optional(
    Nullable(Type.String({ description: 'JSON text shaped by document_annotation_format.' })),
  ),
  document_annotation_method: Type.Optional(
    Type.Union([Type.Literal('language_model'), Type.Literal('extractor')], {
      description: "Not in Mistral's API: who filled document_annotation.",
    }),
  ),
  document_annotation_missing: Type.Optional(
    Type.Array(MissingFieldSchema, {
      description: "Not in Mistral's API: the fields left null in document_annotation, and why.",
    }),
  ),
  usage_info: Type.Object({ pages_processed: Type.Integer(), doc_size_bytes: Nullable(Type.Integer()) }),
});

export type WordConfidence = Static<typeof WordConfidenceSchema>;
export type OcrPageBlock = Static<typeof OcrPageBlockSchema>;
export type OcrImageObject = Static<typeof OcrImageObjectSchema>;
export type OcrTableObject = Static<typeof OcrTableObjectSchema>;
export type OcrPageObject = Static<typeof OcrPageObjectSchema>;
export type MistralOcrResponse = Static<typeof MistralOcrResponseSchema>;
