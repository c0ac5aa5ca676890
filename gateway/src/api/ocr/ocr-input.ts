import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { booleanField, readMultipart } from '../_shared/read-multipart.js';
import type { BoxGranularity } from '../../core/ocr/select-boxes.js';
import type { OcrBodyType } from './ocr-schemas.js';

/** One OCR request, whether it came as JSON or as a multipart upload. */
export interface OcrInput {
  model?: string;
  /** A data URL, base64 or URL (JSON) or the uploaded bytes (multipart). */
  source: string | Buffer;
  returnBboxes: boolean;
  structuredOutput: boolean;
  schema?: Record<string, unknown>;
  granularity: BoxGranularity;
  pages?: number[];
}

const GRANULARITIES = ['word', 'line', 'block'];

function mistralDocumentSource(document: NonNullable<OcrBodyType['document']>): string {
  if (document.type === 'document_url') return document.document_url;
  return typeof document.image_url === 'string' ? document.image_url : document.image_url.url;
}

export function fromJson(body: OcrBodyType): OcrInput {
  const source = body.image ?? (body.document ? mistralDocumentSource(body.document) : undefined);
  if (!source) throw new GatewayError(422, 'invalid_value', "Invalid request: 'image' is required (a data URL, base64, or an http(s) URL).", { param: 'image' });
  return {
    model: body.model,
    source,
    returnBboxes: body.return_bboxes ?? true,
    structuredOutput: body.structured_output ?? false,
    schema: body.schema,
    granularity: body.granularity ?? 'word',
    pages: body.pages,
  };
}

function parsePages(value: string | undefined): number[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const items = value.trim().startsWith('[') ? (JSON.parse(value) as unknown[]) : value.split(',').map((item) => item.trim());
  const pages = items.map(Number);
  if (pages.some((page) => !Number.isInteger(page) || page < 0)) throw new Error('not integers');
  return pages;
}

/** Multipart fields: file, model, return_bboxes, structured_output, schema (JSON text), granularity, pages. */
export async function fromMultipart(request: FastifyRequest): Promise<OcrInput> {
  const { fields, file } = await readMultipart(request);
  if (!file) throw new GatewayError(422, 'invalid_value', "Invalid request: 'file' is required in a multipart OCR request.", { param: 'file' });
  let schema: Record<string, unknown> | undefined;
  if (fields.schema) {
    try {
      schema = JSON.parse(fields.schema) as Record<string, unknown>;
    } catch {
      throw new GatewayError(422, 'invalid_value', "Invalid request: 'schema' must be JSON text.", { param: 'schema' });
    }
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new GatewayError(422, 'invalid_value', "Invalid request: 'schema' must be a JSON object.", { param: 'schema' });
  }
  const granularity = fields.granularity ?? 'word';
  if (!GRANULARITIES.includes(granularity)) throw new GatewayError(422, 'invalid_value', `Invalid request: 'granularity' must be one of ${GRANULARITIES.join(', ')}.`, { param: 'granularity' });
  let pages: number[] | undefined;
  try {
    pages = parsePages(fields.pages);
  } catch {
    throw new GatewayError(422, 'invalid_value', "Invalid request: 'pages' must be 0-based page numbers, as a JSON array or comma-separated.", { param: 'pages' });
  }
  return {
    model: fields.model || undefined,
    source: file.content,
    returnBboxes: booleanField(fields, 'return_bboxes') ?? true,
    structuredOutput: booleanField(fields, 'structured_output') ?? false,
    schema,
    granularity: granularity as BoxGranularity,
    pages,
  };
}
