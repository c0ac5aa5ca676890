import { DEFAULT_OCR_MODEL } from '../../wire/default-models.js';
import type { OcrPage } from '../../providers/contracts/ocr.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ChatService } from '../chat/chat-service.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import type { FileStore } from '../files/file-store.js';
import type { LoadedDocument } from '../files/document-source.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ClientSchemaChecker, SchemaValidator } from '../json/client-schema-checker.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import { fromMediaFailure } from '../errors/provider-error-mapping.js';
import { isGuardrailBlock } from '../guardrails/guardrail-service.js';
import type { RouteRunner } from '../routing/route-runner.js';
import { fillSchemaStrictly } from './fill-schema-strictly.js';
import type { SchemaFillCall } from './fill-schema.js';
import { buildMistralPages, type MistralPageOptions, type PageExtras } from '../../ocr-layout/build-mistral-pages.js';
import type { MistralOcrResponse } from '../../wire/mistral-ocr-response-schema.js';
import type { OcrAdmission } from './ocr-admission.js';
import { recogniseDocument } from './recognise-document.js';
import type { MediaDecoder } from '../../media/media-decoder.js';
import type { StageTracer } from '../../providers/contracts/stage-tracer.js';

/** Mistral's OCR request, read from the wire: where the document is, and what to make of it. */
export interface MistralOcrInput extends MistralPageOptions {
  model?: string;
  /** A URL, or an uploaded file that the calling key may read (`owner`). */
  document: { url: string } | { fileId: string; owner: OwnerScope };
  pages?: number[];
  /** The document's languages as the client named them; absent: detected. */
  languages?: string[];
  includeImageBase64: boolean;
  /** Most figures to return over the whole document; null: no limit. */
  imageLimit: number | null;
  /** Smallest figure side in pixels; null: the default (8 % of the page's shorter side). */
  imageMinSize: number | null;
  documentAnnotation?: { schema: Record<string, unknown>; prompt?: string };
  bboxAnnotation?: { schema: Record<string, unknown> };
}

interface Services {
  chat: ChatService;
  models: ModelRegistry;
  runner: RouteRunner;
  files: FileStore;
  options: { server: { bodyLimitBytes: number } };
  urlFetchPolicy: AddressPolicy;
  ocrAdmission: OcrAdmission;
  media: MediaDecoder;
  schemas: ClientSchemaChecker;
  tracer?: StageTracer;
}

/**
 * The figures of a page cut out as JPEG data URLs: from the document itself when it is an image (in its
 * colours), from the page image the OCR kept when it is a PDF; none when there is no such image.
 */
async function figureCrops(
  media: MediaDecoder,
  document: LoadedDocument,
  page: OcrPage,
  figures: PageExtras['figures'],
  signal: AbortSignal,
): Promise<string[] | undefined> {
  if (figures.length === 0) return undefined;
  const source = document.mediaType !== 'application/pdf' ? document : page.image ? { gray: page.image } : undefined;
  if (!source) return undefined;
  const jpegs = await media.cropJpegs(
    source,
    figures.map((figure) => figure.bbox),
    signal,
  );
  return jpegs.map((jpeg) => `data:image/jpeg;base64,${jpeg.toString('base64')}`);
}

function visionRoute(models: ModelRegistry): ModelRoute {
  // A vision route whose provider chats sees the image itself; the local engine's vision route only reads text.
  const route = models.withCapability('vision').find((candidate) => candidate.provider.capabilities.chat);
  if (!route) {
    throw new GatewayError(
      422,
      'bbox_annotation_unavailable',
      "bbox_annotation_format needs a model route with the 'vision' capability to read each figure; none that can see images is configured. Add one (a vision-language model behind a chat provider) to the config file, or leave bbox_annotation_format out.",
      { param: 'bbox_annotation_format' },
    );
  }
  return route;
}

async function annotateImage(
  services: Services,
  route: ModelRoute,
  schema: Record<string, unknown>,
  validate: SchemaValidator,
  image: string,
  { meter, signal, log, named }: SchemaFillCall,
): Promise<string | null> {
  try {
    const answer = await services.chat.ask(
      route,
      [
        {
          role: 'system',
          content:
            'You describe a figure cut from a document. Answer with one JSON object that matches the given JSON schema; use null for what the figure does not show.',
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: `JSON schema:\n${JSON.stringify(schema)}` },
            { type: 'image_url', image_url: { url: image } },
          ],
        },
      ],
      { responseFormat: { type: 'json_schema', json_schema: { name: 'image_annotation', schema } }, named },
      meter,
      signal,
    );
    const data: unknown = JSON.parse(answer.text);
    const problem = await validate(data);
    if (!problem) return JSON.stringify(data);
    log(`image annotation did not match the schema (${problem})`);
  } catch (error) {
    if (signal.aborted || isGuardrailBlock(error)) throw error;
    log(`image annotation failed (${(error as Error).message})`);
  }
  return null;
}

/**
 * POST /v1/ocr in Mistral's form: OCR of a URL, data URL or uploaded file, shaped as Mistral's pages
 * (markdown, figures with their crops, tables, header and footer, blocks, confidences), with the
 * document annotation filled like a client schema and figure annotations read by a vision route.
 */
export async function processMistralOcr(
  services: Services,
  input: MistralOcrInput,
  {
    keyId,
    meter,
    signal,
    log,
  }: { keyId: string | null; meter: UsageMeter; signal: AbortSignal; log: (message: string) => void },
): Promise<{ response: MistralOcrResponse; route: ModelRoute }> {
  const documentCheck = input.documentAnnotation
    ? await services.schemas.compile(input.documentAnnotation.schema, 'document_annotation_format', signal)
    : undefined;
  const bboxCheck = input.bboxAnnotation
    ? await services.schemas.compile(input.bboxAnnotation.schema, 'bbox_annotation_format', signal)
    : undefined;
  const annotator = input.bboxAnnotation ? visionRoute(services.models) : undefined;
  const route = services.models.resolveOrDefault(input.model, 'ocr', DEFAULT_OCR_MODEL);
  const source =
    'url' in input.document
      ? input.document.url
      : (await services.files.content(input.document.fileId, input.document.owner)).content;
  const cropping = input.includeImageBase64 || annotator !== undefined;
  const {
    result,
    route: served,
    document,
  } = await recogniseDocument(
    services,
    route,
    {
      source,
      pages: input.pages,
      languages: input.languages,
      param: 'document',
      keyId,
      pictures: { minSize: input.imageMinSize, keepImages: cropping },
    },
    signal,
  );

  let figuresLeft = input.imageLimit ?? Infinity;
  let figureCount = 0;
  const extras: PageExtras[] = result.pages.map((page) => {
    const pictures = page.pictures ?? [];
    const figures = pictures.slice(0, Math.max(0, figuresLeft));
    figuresLeft -= figures.length;
    return {
      dpi: Math.round(page.dpi ?? 200),
      pictures,
      figures: figures.map((bbox) => ({ id: `img-${figureCount++}.jpeg`, bbox })),
    };
  });
  const layout = services.tracer?.start('ocr layout', { 'switchyard.ocr.pages': result.pages.length });
  const pages = buildMistralPages(result.pages, extras, input);
  layout?.end();

  if (cropping) {
    for (const [position, page] of pages.entries()) {
      signal.throwIfAborted();
      let crops: string[] | undefined;
      try {
        crops = await services.ocrAdmission.rendering(keyId, signal, () =>
          figureCrops(services.media, document, result.pages[position], extras[position].figures, signal),
        );
      } catch (error) {
        throw fromMediaFailure(error);
      }
      if (!crops) continue;
      for (const [at, object] of page.images.entries()) {
        if (input.includeImageBase64) object.image_base64 = crops[at];
        if (annotator && bboxCheck && input.bboxAnnotation)
          object.image_annotation = await annotateImage(
            services,
            annotator,
            input.bboxAnnotation.schema,
            bboxCheck,
            crops[at],
            { meter, signal, log, named: route },
          );
      }
    }
  }

  const response: MistralOcrResponse = {
    pages,
    model: served.id,
    usage_info: { pages_processed: pages.length, doc_size_bytes: document.bytes.length },
  };
  if (input.documentAnnotation && documentCheck) {
    const filled = await fillSchemaStrictly(
      services.chat,
      {
        schema: input.documentAnnotation.schema,
        validate: documentCheck,
        param: 'document_annotation_format',
        prompt: input.documentAnnotation.prompt,
      },
      result,
      { meter, signal, log, named: route },
    );
    response.document_annotation = JSON.stringify(filled.data);
    response.document_annotation_method = filled.method;
    response.document_annotation_missing = filled.missing;
  }
  return { response, route: served };
}
