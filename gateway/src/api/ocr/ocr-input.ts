import type { OwnerScope } from '../../core/account/resource-owner.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { booleanField, readMultipart, type UploadIntake } from '../_shared/read-multipart.js';
import type { MistralOcrInput } from '../../core/ocr/process-mistral-ocr.js';
import type { OcrRequest } from '../../core/ocr/ocr-service.js';
import type { BoxGranularity } from '../../core/ocr/select-boxes.js';
import type { OcrBodyType } from './ocr-schemas.js';

const GRANULARITIES = ['word', 'line', 'block'];

type MistralDocument = NonNullable<OcrBodyType['document']>;

function mistralDocument(document: MistralDocument, owner: OwnerScope): MistralOcrInput['document'] {
  if (document.type === 'file') return { fileId: document.file_id, owner };
  if (document.type === 'document_url') return { url: document.document_url };
  return { url: typeof document.image_url === 'string' ? document.image_url : document.image_url.url };
}

/** Mistral's form: a `document` and none of SPEC's `image`; it is answered with Mistral's pages. */
export const isMistralForm = (body: OcrBodyType): body is OcrBodyType & { document: MistralDocument } =>
  body.document !== undefined && body.image === undefined;

const PAGES_MESSAGE = "Invalid request: 'pages' must be 0-based page numbers: a JSON array, or text like '0,2-4'.";

/** Page numbers from a list or from text like "0,2-4" (ranges inclusive). */
function pageList(value: number[] | string | null | undefined): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value;
  const pages: number[] = [];
  for (const item of value.split(',')) {
    const range = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(item);
    const from = Number(range?.[1]);
    const to = Number(range?.[2] ?? range?.[1]);
    if (!range || to < from || to - from + pages.length > 1000) {
      throw new GatewayError(422, 'invalid_value', PAGES_MESSAGE, { param: 'pages' });
    }
    for (let page = from; page <= to; page++) pages.push(page);
  }
  return pages;
}

function annotationSchema(
  format: OcrBodyType['document_annotation_format'],
  param: string,
): Record<string, unknown> | undefined {
  if (!format) return undefined;
  if (!format.json_schema)
    throw new GatewayError(
      422,
      'invalid_value',
      `Invalid request: '${param}' must be a response format of type json_schema with a json_schema.schema.`,
      { param },
    );
  return format.json_schema.schema;
}

/** Mistral's form; `owner` is the calling key's scope, for a `file` document. */
export function fromMistralJson(body: OcrBodyType & { document: MistralDocument }, owner: OwnerScope): MistralOcrInput {
  const documentSchema = annotationSchema(body.document_annotation_format, 'document_annotation_format');
  if (body.document_annotation_prompt && !documentSchema) {
    throw new GatewayError(
      422,
      'invalid_value',
      "Invalid request: 'document_annotation_prompt' needs a 'document_annotation_format'.",
      { param: 'document_annotation_prompt' },
    );
  }
  const bboxSchema = annotationSchema(body.bbox_annotation_format, 'bbox_annotation_format');
  return {
    model: body.model ?? undefined,
    document: mistralDocument(body.document, owner),
    pages: pageList(body.pages),
    languages: body.languages ?? undefined,
    includeImageBase64: body.include_image_base64 ?? false,
    imageLimit: body.image_limit ?? null,
    imageMinSize: body.image_min_size ?? null,
    tableFormat: body.table_format ?? null,
    extractHeader: body.extract_header ?? false,
    extractFooter: body.extract_footer ?? false,
    includeBlocks: body.include_blocks ?? false,
    confidenceGranularity: body.confidence_scores_granularity ?? null,
    ...(documentSchema
      ? { documentAnnotation: { schema: documentSchema, prompt: body.document_annotation_prompt ?? undefined } }
      : {}),
    ...(bboxSchema ? { bboxAnnotation: { schema: bboxSchema } } : {}),
  };
}

export function fromJson(body: OcrBodyType): OcrRequest {
  const source = body.image;
  if (!source)
    throw new GatewayError(
      422,
      'invalid_value',
      "Invalid request: 'image' is required (a data URL, base64, or an http(s) URL).",
      { param: 'image' },
    );
  return {
    model: body.model ?? undefined,
    source,
    returnBboxes: body.return_bboxes ?? true,
    structuredOutput: body.structured_output ?? false,
    schema: body.schema,
    granularity: body.granularity ?? 'word',
    includeTables: body.include_tables ?? false,
    pages: pageList(body.pages),
    languages: body.languages ?? undefined,
  };
}

function parsePages(value: string | undefined): number[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!value.trim().startsWith('[')) return pageList(value);
  const pages = (JSON.parse(value) as unknown[]).map(Number);
  if (pages.some((page) => !Number.isInteger(page) || page < 0)) throw new Error('not integers');
  return pages;
}

/** A multipart `languages` field: codes apart by commas or spaces ("fra,eng"). */
function languageList(value: string | undefined): string[] | undefined {
  const languages = value?.split(/[\s,+]+/).filter(Boolean);
  if (!languages || languages.length === 0) return undefined;
  if (languages.length > 8 || languages.some((language) => !/^[A-Za-z_-]{2,20}$/.test(language)))
    throw new GatewayError(
      422,
      'invalid_value',
      "Invalid request: 'languages' must be up to 8 language codes (fra, rus, chi_sim or fr, ...), apart by commas.",
      { param: 'languages' },
    );
  return languages;
}

/** Multipart fields: file, model, return_bboxes, structured_output, schema (JSON text), granularity, include_tables, pages, languages. */
export async function fromMultipart(
  request: FastifyRequest,
  reply: FastifyReply,
  uploads: UploadIntake,
): Promise<OcrRequest> {
  const { fields, file } = await readMultipart(request, reply, uploads);
  if (!file)
    throw new GatewayError(422, 'invalid_value', "Invalid request: 'file' is required in a multipart OCR request.", {
      param: 'file',
    });
  let schema: Record<string, unknown> | undefined;
  if (fields.schema) {
    try {
      schema = JSON.parse(fields.schema) as Record<string, unknown>;
    } catch {
      throw new GatewayError(422, 'invalid_value', "Invalid request: 'schema' must be JSON text.", { param: 'schema' });
    }
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
      throw new GatewayError(422, 'invalid_value', "Invalid request: 'schema' must be a JSON object.", {
        param: 'schema',
      });
  }
  const granularity = fields.granularity ?? 'word';
  if (!GRANULARITIES.includes(granularity))
    throw new GatewayError(
      422,
      'invalid_value',
      `Invalid request: 'granularity' must be one of ${GRANULARITIES.join(', ')}.`,
      { param: 'granularity' },
    );
  let pages: number[] | undefined;
  try {
    pages = parsePages(fields.pages);
  } catch (error) {
    throw error instanceof GatewayError
      ? error
      : new GatewayError(422, 'invalid_value', PAGES_MESSAGE, { param: 'pages' });
  }
  return {
    model: fields.model || undefined,
    source: await file.read(),
    returnBboxes: booleanField(fields, 'return_bboxes') ?? true,
    structuredOutput: booleanField(fields, 'structured_output') ?? false,
    schema,
    granularity: granularity as BoxGranularity,
    includeTables: booleanField(fields, 'include_tables') ?? false,
    pages,
    languages: languageList(fields.languages),
  };
}
