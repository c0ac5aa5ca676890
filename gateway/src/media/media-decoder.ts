import type { GrayImage } from './image/decode-image.js';
import type { BoxCoordinates } from '../ocr-layout/ocr-page.js';
import { MediaError } from './media-error.js';
import type { PdfStreamLimits } from './pdf/check-pdf-streams.js';
import type {
  CropJob,
  DecodedPng,
  ImageColours,
  ImageJob,
  PdfBytes,
  PdfPageContent,
  PdfPageJob,
  PdfRenderJob,
  PageDrawing,
  PicturesJob,
  RenderedPdfPage,
} from './work-pool/media-tasks.js';
import { taskModule } from './work-pool/task-module.js';
import type { WorkPool } from './work-pool/work-pool.js';

export type { PdfPageContent } from './work-pool/media-tasks.js';

/** A document's page as a PNG (see MediaDecoder.pagePng). */
export interface RenderedPage {
  page: number;
  pageCount: number;
  width: number;
  height: number;
  /** Pixels per inch of the rendering (an image's own density, 72 when it names none). */
  dpi: number;
  png: Buffer;
}

/** Most bytes one PDF stream (a page's content, a form, a font) may inflate to. */
const PDF_MAX_STREAM_BYTES = 64 * 2 ** 20;
/** Most operators in one PDF content stream: a dense page of text draws with a few thousand. */
const PDF_MAX_OPERATORS = 150_000;

const MEDIA_TASKS = taskModule(import.meta.url, 'work-pool/media-tasks');

/** A PDF opened for one request: its bytes shared by the jobs that read its pages. */
export interface OpenedPdf {
  bytes: PdfBytes;
  pageCount: number;
  limits: PdfStreamLimits;
}

/**
 * Decodes documents and images on the work pool (see WorkPool): PDF pages (text layer, rendering),
 * images to gray pixels or PNG. Sizes are checked from headers and declarations before the work.
 */
export class MediaDecoder {
  constructor(readonly pool: WorkPool) {}

  private run<P, R>(name: string, payload: P, signal: AbortSignal): Promise<R> {
    return this.pool.run<P, R>(payload, { module: MEDIA_TASKS, name, signal });
  }

  /** Checks a PDF's streams (see checkPdfStreams) and counts its pages; images over `maxPixels` are refused. */
  async openPdf(bytes: Uint8Array, maxPixels: number, signal: AbortSignal): Promise<OpenedPdf> {
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
    shared.set(bytes);
    const limits: PdfStreamLimits = {
      maxImagePixels: maxPixels,
      maxStreamBytes: PDF_MAX_STREAM_BYTES,
      maxOperators: PDF_MAX_OPERATORS,
    };
    const pageCount = await this.run<{ pdf: PdfBytes; limits: PdfStreamLimits }, number>(
      'pdfPageCount',
      { pdf: shared, limits },
      signal,
    );
    return { bytes: shared, pageCount, limits };
  }

  /**
   * A page's words from its text layer at `dpi`, or, when it has none, its pixels rendered at `dpi`;
   * `withImage`: its pixels as well when it has a text layer.
   */
  pdfPage(
    pdf: OpenedPdf,
    request: { page: number; dpi: number; maxPixels: number; withImage?: boolean },
    signal: AbortSignal,
  ): Promise<PdfPageContent> {
    return this.run<PdfPageJob, PdfPageContent>(
      'pdfPageContent',
      { pdf: pdf.bytes, limits: pdf.limits, ...request },
      signal,
    );
  }

  /**
   * A page of a document as a PNG, for showing OCR boxes over it: a PDF page rendered in gray at `width`
   * (the width OCR gave it, so box pixels line up) or at `defaultDpi`, or an image (page 0) decoded as
   * it is, orientation applied.
   */
  async pagePng(
    document: { bytes: Uint8Array; mediaType: string },
    request: { page: number; width?: number; defaultDpi: number; maxPixels: number },
    signal: AbortSignal,
  ): Promise<RenderedPage> {
    const asBuffer = (png: Uint8Array): Buffer => Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    if (document.mediaType !== 'application/pdf') {
      if (request.page !== 0)
        throw new MediaError('invalid_document', 'An image has only page 0.', {
          code: 'page_out_of_range',
          param: 'page',
        });
      const { bytes, mediaType } = document;
      const decoded = await this.run<ImageJob, DecodedPng>(
        'imageToPng',
        { bytes, mediaType, maxPixels: request.maxPixels },
        signal,
      );
      const { width, height } = decoded;
      return {
        page: 0,
        pageCount: 1,
        width,
        height,
        dpi: Math.round(decoded.density ?? 72),
        png: asBuffer(decoded.png),
      };
    }
    const limits: PdfStreamLimits = {
      maxImagePixels: request.maxPixels,
      maxStreamBytes: PDF_MAX_STREAM_BYTES,
      maxOperators: PDF_MAX_OPERATORS,
    };
    const rendered = await this.run<PdfRenderJob, RenderedPdfPage>(
      'renderPdfPageToPng',
      { pdf: document.bytes, limits, ...request },
      signal,
    );
    const { pageCount, width, height, dpi } = rendered;
    return { page: request.page, pageCount, width, height, dpi, png: asBuffer(rendered.png) };
  }

  /** An image (first frame, orientation applied) in 8-bit gray, with the density it names; `mediaType` as the caller detected it. */
  imageToGray(
    bytes: Uint8Array,
    mediaType: string,
    maxPixels: number,
    signal: AbortSignal,
  ): Promise<GrayImage & { density?: number }> {
    return this.run<ImageJob, GrayImage & { density?: number }>('imageToGray', { bytes, mediaType, maxPixels }, signal);
  }

  /** An image's size (orientation applied) and its most common colours. */
  imageColours(bytes: Uint8Array, mediaType: string, maxPixels: number, signal: AbortSignal): Promise<ImageColours> {
    return this.run<ImageJob, ImageColours>('imageColours', { bytes, mediaType, maxPixels }, signal);
  }

  /**
   * The picture areas (photos, charts, drawings) of a page image that no word covers, top to bottom
   * (see findFigures), and its ruled lines (see findRules).
   */
  findPictures(
    image: GrayImage,
    words: BoxCoordinates[],
    minSize: number | null,
    signal: AbortSignal,
  ): Promise<PageDrawing> {
    return this.run<PicturesJob, PageDrawing>('pagePictures', { image, words, minSize }, signal);
  }

  /** `boxes` cut out of an image (in its colours) or a gray page image, as JPEGs. */
  async cropJpegs(source: CropJob['source'], boxes: BoxCoordinates[], signal: AbortSignal): Promise<Buffer[]> {
    const jpegs = await this.run<CropJob, Uint8Array[]>('cropsAsJpeg', { source, boxes }, signal);
    return jpegs.map((jpeg) => Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength));
  }
}
