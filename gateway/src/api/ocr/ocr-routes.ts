import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_OCR_MODEL } from '../../wire/default-models.js';
import { documentSourceLimits, loadDocumentSource } from '../../core/files/document-source.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { newId } from '../../core/ids/ids.js';
import { compileClientSchema } from '../../core/json/json-schema-check.js';
import { fillSchemaStrictly } from '../../core/ocr/fill-schema-strictly.js';
import { layoutAsStructuredData } from '../../core/ocr/layout-as-structured-data.js';
import { ownerScope } from '../../core/account/resource-owner.js';
import { processMistralOcr } from '../../core/ocr/process-mistral-ocr.js';
import { recogniseDocument } from '../../core/ocr/recognise-document.js';
import { renderDocumentPage } from '../../core/ocr/render-document-page.js';
import { selectBoxes } from '../../core/ocr/select-boxes.js';
import { toGatewayError } from '../../core/errors/provider-error-mapping.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { recordUsage } from '../_shared/record-usage.js';
import { fromJson, fromMistralJson, fromMultipart, isMistralForm, type OcrInput } from './ocr-input.js';
import { OcrBody, OcrResultSchema, type OcrBodyType } from './ocr-schemas.js';

/**
 * POST /v1/ocr: text (with word, line or block boxes) or schema-shaped data from an image or PDF,
 * sent as JSON (data URL, base64 or URL; Mistral's `document` also works) or as a multipart upload.
 */
export const ocrRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const services = app.services;

  async function handle(request: FastifyRequest, reply: FastifyReply, input: OcrInput) {
    if (input.schema && !input.structuredOutput) {
      throw new GatewayError(422, 'invalid_value', "Invalid request: 'structured_output' must be true when a 'schema' is given.", { param: 'structured_output' });
    }
    const validate = input.schema ? compileClientSchema(input.schema, 'schema') : undefined;
    const route = services.models.resolve(input.model ?? DEFAULT_OCR_MODEL, 'ocr');
    const signal = clientAbortSignal(reply);
    const { result, route: served } = await recogniseDocument(services, route, input.source, input.pages, signal);
    const pages = result.pages.map((page) => ({ index: page.index, width: page.width, height: page.height, text: page.text, source: page.source }));
    const text = result.pages.map((page) => page.text).join('\n\n');
    const base = { id: newId('ocr-'), object: 'ocr.result' as const, model: served.id, text, pages };
    const boxes = input.returnBboxes ? { bboxes: selectBoxes(result, input.granularity), granularity: input.granularity } : {};
    recordUsage(request, reply, served, { prompt_tokens: 0, completion_tokens: 0 });

    if (input.schema && validate) {
      const filled = await fillSchemaStrictly(services, { schema: input.schema, validate, param: 'schema' }, result, signal, (message) => request.log.info(message));
      return { ...base, ...boxes, structured_data: filled.data, structured_method: filled.method };
    }
    if (input.structuredOutput) return { ...base, ...boxes, structured_data: layoutAsStructuredData(result), structured_method: 'layout' };
    return { ...base, ...boxes };
  }

  async function handleMistral(request: FastifyRequest, reply: FastifyReply, body: Parameters<typeof fromMistralJson>[0]) {
    const input = fromMistralJson(body, ownerScope(request.apiKey));
    const { response, route } = await processMistralOcr(services, input, clientAbortSignal(reply), (message) => request.log.info(message));
    recordUsage(request, reply, route, { prompt_tokens: 0, completion_tokens: 0 });
    return response;
  }

  async function route(request: FastifyRequest<{ Body: OcrBodyType }>, reply: FastifyReply) {
    if (request.isMultipart()) return handle(request, reply, await fromMultipart(request));
    return isMistralForm(request.body) ? handleMistral(request, reply, request.body) : handle(request, reply, fromJson(request.body));
  }

  app.post(
    '/v1/ocr',
    {
      config: { billable: true },
      schema: {
        tags: ['ocr'],
        summary: 'OCR an image or PDF: text, boxes ([x1, y1, x2, y2] in page-image pixels, top-left origin) or schema-shaped data; or Mistral-style pages',
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
        summary: 'A page of a document as a PNG (PDF pages rendered at the width OCR reported), for drawing boxes over it',
        body: Type.Object({ image: Type.String({ minLength: 1 }), page: Type.Optional(Type.Integer({ minimum: 0, default: 0 })), width: Type.Optional(Type.Integer({ minimum: 16, maximum: 20_000 })) }),
        response: { 200: Type.Object({ page: Type.Integer(), page_count: Type.Integer(), width: Type.Integer(), height: Type.Integer(), image: Type.String() }), ...errorResponses },
      },
    },
    async (request) => {
      const bytes = await loadDocumentSource(request.body.image, documentSourceLimits(services));
      try {
        const rendered = await renderDocumentPage(bytes, request.body.page ?? 0, request.body.width);
        return { page: rendered.page, page_count: rendered.pageCount, width: rendered.width, height: rendered.height, image: `data:image/png;base64,${rendered.png.toString('base64')}` };
      } catch (error) {
        throw toGatewayError(error, 'renderer');
      }
    },
  );
};
