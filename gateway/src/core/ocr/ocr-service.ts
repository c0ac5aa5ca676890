import { DEFAULT_OCR_MODEL } from '../../wire/default-models.js';
import type { OcrResult } from '../../providers/contracts/ocr.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ChatService } from '../chat/chat-service.js';
import { GatewayError } from '../errors/gateway-error.js';
import { fromMediaFailure } from '../errors/provider-error-mapping.js';
import { documentSourceLimits, loadDocument } from '../files/document-source.js';
import type { FileStore } from '../files/file-store.js';
import type { ClientSchemaChecker } from '../json/client-schema-checker.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import type { MissingField } from './extract-by-schema.js';
import type { FilledSchema } from './fill-schema.js';
import { fillSchemaStrictly } from './fill-schema-strictly.js';
import { layoutAsStructuredData } from './layout-as-structured-data.js';
import type { MistralOcrResponse } from '../../wire/mistral-ocr-response-schema.js';
import { processMistralOcr, type MistralOcrInput } from './process-mistral-ocr.js';
import type { OcrAdmission } from './ocr-admission.js';
import { recogniseDocument } from './recognise-document.js';
import { selectBoxes, type BoxGranularity, type SelectedBox } from './select-boxes.js';
import { pageTables } from '../../ocr-layout/page-tables.js';
import type { SpecOcrTable } from '../../wire/ocr-table-schema.js';
import type { MediaDecoder, RenderedPage } from '../../media/media-decoder.js';
import type { StageTracer } from '../../providers/contracts/stage-tracer.js';

/** One OCR request in SPEC's form, whether it came as JSON or as a multipart upload. */
export interface OcrRequest {
  model?: string;
  /** A data URL, base64 or URL (JSON) or the uploaded bytes (multipart). */
  source: string | Buffer;
  returnBboxes: boolean;
  structuredOutput: boolean;
  schema?: Record<string, unknown>;
  granularity: BoxGranularity;
  /** Each page's tables with their cells (found with the page's ruled lines, which asks the provider for its drawing). */
  includeTables?: boolean;
  pages?: number[];
  /** The document's languages as the client named them (see the provider's OcrRequest.languages); absent: detected. */
  languages?: string[];
}

export interface OcrOutcome {
  route: ModelRoute;
  result: OcrResult;
  /** Every page's text, pages apart by a blank line. */
  text: string;
  boxes?: { bboxes: SelectedBox[]; granularity: BoxGranularity };
  /** Per page, with includeTables. */
  tables?: SpecOcrTable[][];
  /** Schema-shaped data (`schema`), or the layout as data (`structured_output` alone). */
  structured?: { data: Record<string, unknown>; method: 'language_model' | 'extractor' | 'layout' };
  /** How a schema was filled: the fields left null with their reasons, who filled it, and the chat model's tokens. */
  fill?: { missing: MissingField[]; note: string; model?: string; usage: TokenUsage };
}

export interface OcrServices {
  chat: ChatService;
  models: ModelRegistry;
  runner: RouteRunner;
  files: FileStore;
  options: { server: { bodyLimitBytes: number } };
  urlFetchPolicy: AddressPolicy;
  ocrAdmission: OcrAdmission;
  media: MediaDecoder;
  schemas: ClientSchemaChecker;
  /** Where the layout of Mistral's pages records its span. */
  tracer?: StageTracer;
}

/** One OCR call: who asks (the local engine takes keys in turns), its meter, its abort and its log. */
export interface OcrCall {
  keyId: string | null;
  meter: UsageMeter;
  signal: AbortSignal;
  log: (message: string) => void;
}

/** A page drawn for boxes: at most 60 megapixels; a PDF page without a width at the local OCR engine's own 200 DPI, so it lines up with its boxes. */
const PAGE_RENDERING = { maxPixels: 60_000_000, defaultDpi: 200 };

const NO_TOKENS: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };

function fillReport(filled: FilledSchema): NonNullable<OcrOutcome['fill']> {
  return {
    missing: filled.missing,
    note: filled.note,
    model: filled.method === 'language_model' ? filled.chat?.route.id : undefined,
    usage: filled.chat?.usage ?? NO_TOKENS,
  };
}

/** OCR of an image or PDF: text and boxes or schema-shaped data (SPEC's form), Mistral's pages, or one page as a picture. */
export class OcrService {
  constructor(private readonly services: OcrServices) {}

  async read(request: OcrRequest, { keyId, meter, signal, log }: OcrCall): Promise<OcrOutcome> {
    if (request.schema && !request.structuredOutput) {
      throw new GatewayError(
        422,
        'invalid_value',
        "Invalid request: 'structured_output' must be true when a 'schema' is given.",
        { param: 'structured_output' },
      );
    }
    const validate = request.schema ? await this.services.schemas.compile(request.schema, 'schema', signal) : undefined;
    const route = this.services.models.resolveOrDefault(request.model, 'ocr', DEFAULT_OCR_MODEL);
    const { result, route: served } = await recogniseDocument(
      this.services,
      route,
      {
        source: request.source,
        pages: request.pages,
        languages: request.languages,
        param: 'image',
        keyId,
        ...(request.includeTables ? { pictures: { minSize: null, keepImages: false } } : {}),
      },
      signal,
    );
    meter.charge(served, NO_TOKENS);
    const outcome: OcrOutcome = {
      route: served,
      result,
      text: result.pages.map((page) => page.text).join('\n\n'),
      ...(request.returnBboxes
        ? { boxes: { bboxes: selectBoxes(result, request.granularity), granularity: request.granularity } }
        : {}),
      ...(request.includeTables ? { tables: pageTables(result.pages) } : {}),
    };
    if (request.schema && validate) {
      const filled = await fillSchemaStrictly(
        this.services.chat,
        { schema: request.schema, validate, param: 'schema' },
        result,
        { meter, signal, log, named: route },
      );
      return { ...outcome, structured: { data: filled.data, method: filled.method }, fill: fillReport(filled) };
    }
    if (request.structuredOutput)
      return { ...outcome, structured: { data: layoutAsStructuredData(result), method: 'layout' } };
    return outcome;
  }

  /** Mistral's form: its pages (markdown, figures, tables, ...), and the annotations it asks for. */
  async readAsMistral(input: MistralOcrInput, call: OcrCall): Promise<MistralOcrResponse> {
    const { response, route } = await processMistralOcr(this.services, input, call);
    call.meter.charge(route, NO_TOKENS);
    return response;
  }

  /** A page of a document as a PNG (a PDF page at `width` pixels, as OCR reported it), for drawing boxes over it; rendered in the key's turn. */
  async renderPage(
    source: string,
    page: number,
    width: number | undefined,
    keyId: string | null,
    signal: AbortSignal,
  ): Promise<RenderedPage> {
    const document = await loadDocument(source, documentSourceLimits(this.services), {
      param: 'image',
      accept: 'documents',
    });
    try {
      return await this.services.ocrAdmission.rendering(keyId, signal, () =>
        this.services.media.pagePng(document, { page, width, ...PAGE_RENDERING }, signal),
      );
    } catch (error) {
      throw fromMediaFailure(error);
    }
  }
}
