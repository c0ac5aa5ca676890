import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../../core/ids/ids.js';
import type { OcrCall, OcrRequest, OcrService } from '../../core/ocr/ocr-service.js';
import { ownerScope } from '../../core/account/resource-owner.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import type { UploadIntake } from '../_shared/read-multipart.js';
import { fromJson, fromMistralJson, fromMultipart, isMistralForm } from './ocr-input.js';
import { pageLanguageFields } from '../../ocr-layout/page-language-fields.js';
import { OcrBody, OcrResultSchema, RenderPageBody, RenderedPage, type OcrBodyType } from './ocr-schemas.js';

function ocrCall(request: FastifyRequest, reply: FastifyReply): OcrCall {
  return {
    keyId: request.apiKey?.id ?? null,
    meter: request.billing,
    signal: clientAbortSignal(reply),
    log: (message) => request.log.info(message),
  };
}

/**
 * POST /v1/ocr: text (with word, line or block boxes) or schema-shaped data from an image or PDF,
 * sent as JSON (data URL, base64 or URL; Mistral's `document` also works) or as a multipart upload.
 */
export const ocrRoutes: FastifyPluginAsyncTypebox<{ ocr: OcrService; uploads: UploadIntake }> = async (
  app,
  { ocr, uploads },
) => {
  async function handle(request: FastifyRequest, reply: FastifyReply, input: OcrRequest) {
    const read = await ocr.read(input, ocrCall(request, reply));
    const pages = read.result.pages.map((page, position) => ({
      index: page.index,
      width: page.width,
      height: page.height,
      text: page.text,
      source: page.source,
      ...(read.tables ? { tables: read.tables[position] } : {}),
      ...pageLanguageFields(page),
    }));
    return {
      id: newId('ocr-'),
      object: 'ocr.result' as const,
      model: read.route.id,
      text: read.text,
      pages,
      ...(read.boxes ?? {}),
      ...(read.structured ? { structured_data: read.structured.data, structured_method: read.structured.method } : {}),
      ...(read.fill
        ? {
            ...(read.fill.model ? { structured_model: read.fill.model } : {}),
            structured_note: read.fill.note,
            structured_missing: read.fill.missing,
            usage: {
              ...read.fill.usage,
              total_tokens: read.fill.usage.prompt_tokens + read.fill.usage.completion_tokens,
            },
          }
        : {}),
    };
  }

  async function route(request: FastifyRequest<{ Body: OcrBodyType }>, reply: FastifyReply) {
    if (request.isMultipart()) return handle(request, reply, await fromMultipart(request, reply, uploads));
    if (!isMistralForm(request.body)) return handle(request, reply, fromJson(request.body));
    return ocr.readAsMistral(fromMistralJson(request.body, ownerScope(request.apiKey)), ocrCall(request, reply));
  }

  app.post(
    '/v1/ocr',
    {
      config: { billable: true },
      schema: {
        tags: ['ocr'],
        summary:
          'OCR an image or PDF: text, boxes ([x1, y1, x2, y2] in page-image pixels, top-left origin) or schema-shaped data; or Mistral-style pages',
        description:
          'JSON body, or multipart/form-data with fields file, model, return_bboxes, structured_output, schema (JSON text), granularity, pages. ' +
          'Variants: text (+ bboxes, default), structured_output without schema (layout with boxes), schema + structured_output (structured_data, validated against the schema). ' +
          "A JSON body with Mistral's `document` (document_url, image_url, or file with file_id) and no `image` is answered in Mistral's shape: pages with markdown, images, tables, header, footer, dimensions, blocks and confidence_scores, usage_info, document_annotation.",
        body: OcrBody,
        consumes: ['application/json', 'multipart/form-data'],
        response: { 200: OcrResultSchema, ...errorResponses },
      },
      // A multipart body is read by the handler; the JSON schema applies to JSON bodies only.
      preValidation: async (request) => {
        if (request.isMultipart()) (request as { body: unknown }).body = {};
      },
    },
    route,
  );

  app.post(
    '/v1/ocr/render',
    {
      schema: {
        tags: ['ocr'],
        summary:
          'A page of a document as a PNG (PDF pages rendered at the width OCR reported), for drawing boxes over it',
        body: RenderPageBody,
        response: { 200: RenderedPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const rendered = await ocr.renderPage(
        request.body.image,
        request.body.page ?? 0,
        request.body.width,
        request.apiKey?.id ?? null,
        clientAbortSignal(reply),
      );
      return {
        page: rendered.page,
        page_count: rendered.pageCount,
        width: rendered.width,
        height: rendered.height,
        image: `data:image/png;base64,${rendered.png.toString('base64')}`,
      };
    },
  );
};
