import type { GrayImage } from './image/decode-image.js';
import type { BoxCoordinates } from '../ocr-layout/ocr-page.js';
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
  PicturesJob,
  RenderedPdfPage,
} from './work-pool/media-tasks.js';
import { taskModule } from './work-pool/task-module.js';
import type { WorkPool } from './work-pool/work-pool.js';

export type { DecodedPng, PdfPageContent, RenderedPdfPage } from './work-pool/media-tasks.js';

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

  /** One page of a PDF as a gray PNG, `width` pixels wide or at `defaultDpi`. */
  renderPdfPage(
    bytes: Uint8Array,
    request: { page: number; width?: number; defaultDpi: number; maxPixels: number },
    signal: AbortSignal,
  ): Promise<RenderedPdfPage> {
    const limits: PdfStreamLimits = {
      maxImagePixels: request.maxPixels,
      maxStreamBytes: PDF_MAX_STREAM_BYTES,
      maxOperators: PDF_MAX_OPERATORS,
    };
    return this.run<PdfRenderJob, RenderedPdfPage>('renderPdfPageToPng', { pdf: bytes, limits, ...request }, signal);
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

  /** An image (first frame, orientation applied) as PNG, with its size and density. */
  imageToPng(bytes: Uint8Array, mediaType: string, maxPixels: number, signal: AbortSignal): Promise<DecodedPng> {
    return this.run<ImageJob, DecodedPng>('imageToPng', { bytes, mediaType, maxPixels }, signal);
  }

  /** An image's size (orientation applied) and its most common colours. */
  imageColours(bytes: Uint8Array, mediaType: string, maxPixels: number, signal: AbortSignal): Promise<ImageColours> {
    return this.run<ImageJob, ImageColours>('imageColours', { bytes, mediaType, maxPixels }, signal);
  }

  /** The picture areas (photos, charts, drawings) of a page image that no word covers, top to bottom (see findFigures). */
  findPictures(
    image: GrayImage,
    words: BoxCoordinates[],
    minSize: number | null,
    signal: AbortSignal,
  ): Promise<BoxCoordinates[]> {
    return this.run<PicturesJob, BoxCoordinates[]>('pagePictures', { image, words, minSize }, signal);
  }

  /** `boxes` cut out of an image (in its colours) or a gray page image, as JPEGs. */
  async cropJpegs(source: CropJob['source'], boxes: BoxCoordinates[], signal: AbortSignal): Promise<Buffer[]> {
    const jpegs = await this.run<CropJob, Uint8Array[]>('cropsAsJpeg', { source, boxes }, signal);
    return jpegs.map((jpeg) => Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength));
  }
}
