import { dominantColours, type DominantColour } from '../image/dominant-colours.js';
import { cropJpegs, decodeGray, decodeToPng, grayToPng, type GrayImage } from '../image/decode-image.js';
import { checkPdfStreams, type PdfStreamLimits } from '../pdf/check-pdf-streams.js';
import { openPdf, type PDFDocumentProxy } from '../pdf/open-pdf.js';
import { readTextLayer } from '../pdf/read-text-layer.js';
import { pdfPageSize, renderPdfPage } from '../pdf/render-pdf-page.js';
import { findFigures } from '../../ocr-layout/find-figures.js';
import { findRules } from '../../ocr-layout/find-rules.js';
import type { PageRules } from '../../ocr-layout/page-rules.js';
import type { BoxCoordinates, OcrWord } from '../../ocr-layout/ocr-page.js';
import { MediaError } from '../media-error.js';
import { sharedGray, workTask } from './work-task.js';

// The tasks MediaDecoder runs on the work pool's threads (see WorkPool); each returns a WorkOutcome.

/**
 * Bytes in memory of their own, so they can be moved to the event loop's thread: a Buffer may sit in
 * Node's shared pool or in memory a native library owns, which cannot be moved.
 */
const movable = (view: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(view);

/** A PDF's bytes: shared between the jobs of one request rather than copied to each. */
export type PdfBytes = Uint8Array<SharedArrayBuffer> | Uint8Array;

export interface PdfJob {
  pdf: PdfBytes;
  limits: PdfStreamLimits;
}

async function withPdf<R>(job: PdfJob, read: (pdf: PDFDocumentProxy) => Promise<R>): Promise<R> {
  // pdf.js detaches the buffer it is given, and a shared one cannot be: it reads a copy.
  const pdf = await openPdf(new Uint8Array(job.pdf), job.limits.maxImagePixels);
  try {
    return await read(pdf);
  } finally {
    await pdf.destroy();
  }
}

/** Checks the whole document's streams against the limits, then opens it: its page count. */
export const pdfPageCount = workTask(async (job: PdfJob): Promise<number> => {
  checkPdfStreams(job.pdf, job.limits);
  return withPdf(job, async (pdf) => pdf.numPages);
});

export interface PdfPageJob extends PdfJob {
  /** 0-based. */
  page: number;
  dpi: number;
  maxPixels: number;
  /** Render a page with a text layer too. */
  withImage?: boolean;
}

export type PdfPageContent =
  | { width: number; height: number; words: OcrWord[]; image?: GrayImage }
  | { width: number; height: number; image: GrayImage };

/**
 * A page's text layer at `dpi`, or, when it has none (a scan), the page rendered in gray (in shared
 * memory, see sharedGray); `withImage`: a page with a text layer rendered as well.
 */
export const pdfPageContent = workTask((job: PdfPageJob): Promise<PdfPageContent> =>
  withPdf(job, async (pdf) => {
    const page = await pdf.getPage(job.page + 1);
    pdfPageSize(page, job.dpi, job.maxPixels);
    const layer = await readTextLayer(page, job.dpi);
    if (layer.words.length > 0 && !job.withImage) return layer;
    const image = sharedGray(await renderPdfPage(page, job.dpi, job.maxPixels));
    if (layer.words.length > 0) return { ...layer, image };
    return { width: image.width, height: image.height, image };
  }),
);

export interface PdfRenderJob extends PdfJob {
  page: number;
  /** Width to render at (the DPI follows); absent: `defaultDpi`. */
  width?: number;
  defaultDpi: number;
  maxPixels: number;
}

export interface RenderedPdfPage {
  pageCount: number;
  width: number;
  height: number;
  dpi: number;
  png: Uint8Array;
}

/** The DPI that renders a page `pointsWide` points wide at `width` pixels: OCR renders at whole DPIs, so prefer the whole one. */
function dpiForWidth(pointsWide: number, width: number): number {
  const exact = (width * 72) / pointsWide;
  const whole = Math.round(exact);
  return Math.ceil((pointsWide * whole) / 72) === width ? whole : exact;
}

/** One page as a gray PNG, at a width (the one OCR gave it, so boxes line up) or the default DPI. */
export const renderPdfPageToPng = workTask(
  (job: PdfRenderJob): Promise<RenderedPdfPage> => {
    checkPdfStreams(job.pdf, job.limits);
    return withPdf(job, async (pdf) => {
      if (job.page >= pdf.numPages) {
        throw new MediaError(
          'invalid_document',
          `The PDF has ${pdf.numPages} page(s); page ${job.page} does not exist (pages are 0-based).`,
          { code: 'page_out_of_range', param: 'page' },
        );
      }
      const page = await pdf.getPage(job.page + 1);
      const dpi = job.width ? dpiForWidth(page.getViewport({ scale: 1 }).width, job.width) : job.defaultDpi;
      const gray = await renderPdfPage(page, dpi, job.maxPixels);
      return {
        pageCount: pdf.numPages,
        width: gray.width,
        height: gray.height,
        dpi: Math.round(dpi),
        png: movable(await grayToPng(gray)),
      };
    });
  },
  (rendered) => [rendered.png.buffer as ArrayBuffer],
);

export interface ImageJob {
  bytes: Uint8Array;
  /** As the caller detected it (see sniffMediaType). */
  mediaType: string;
  maxPixels: number;
}

const bytesOf = (view: Uint8Array): Buffer => Buffer.from(view.buffer, view.byteOffset, view.byteLength);

/** An image decoded to 8-bit gray, in shared memory (see sharedGray), with the density it names. */
export const imageToGray = workTask(async (job: ImageJob): Promise<GrayImage & { density?: number }> => {
  const decoded = await decodeGray(bytesOf(job.bytes), { maxPixels: job.maxPixels, mediaType: job.mediaType });
  return { ...sharedGray(decoded), density: decoded.density };
});

export interface DecodedPng {
  png: Uint8Array;
  width: number;
  height: number;
  /** Pixels per inch the image names, if any. */
  density?: number;
}

/** An image decoded (orientation applied) and encoded again as PNG, with its size and density. */
export const imageToPng = workTask(
  async (job: ImageJob): Promise<DecodedPng> => {
    const decoded = await decodeToPng(bytesOf(job.bytes), { maxPixels: job.maxPixels, mediaType: job.mediaType });
    return { ...decoded, png: movable(decoded.png) };
  },
  (decoded) => [decoded.png.buffer as ArrayBuffer],
);

/** Smallest picture side by default: 8 % of the page's shorter side. */
const DEFAULT_PICTURE_SIDE = 0.08;

export interface PicturesJob {
  image: GrayImage;
  words: BoxCoordinates[];
  /** Smallest picture side in pixels; null: the default. */
  minSize: number | null;
}

export interface PageDrawing {
  pictures: BoxCoordinates[];
  rules: PageRules;
}

/** The picture areas of a page image (see findFigures) and its ruled lines (see findRules). */
export const pagePictures = workTask(({ image, words, minSize }: PicturesJob): PageDrawing => {
  const side = minSize ?? Math.round(Math.min(image.width, image.height) * DEFAULT_PICTURE_SIDE);
  return { pictures: findFigures(image, words, Math.max(8, side)), rules: findRules(image) };
});

export interface CropJob {
  source: { bytes: Uint8Array; mediaType: string } | { gray: GrayImage };
  boxes: BoxCoordinates[];
}

/** `boxes` cut out of an image or a gray page as JPEGs (see cropJpegs). */
export const cropsAsJpeg = workTask(
  async ({ source, boxes }: CropJob): Promise<Uint8Array[]> => {
    const jpegs = await cropJpegs('gray' in source ? source : { ...source, bytes: bytesOf(source.bytes) }, boxes);
    return jpegs.map(movable);
  },
  (jpegs) => jpegs.map((jpeg) => jpeg.buffer as ArrayBuffer),
);

export interface ImageColours {
  width: number;
  height: number;
  colours: DominantColour[];
}

/** An image's size (orientation applied) and its most common colours (see dominantColours). */
export const imageColours = workTask(async (job: ImageJob): Promise<ImageColours> => {
  const decoded = await decodeToPng(bytesOf(job.bytes), { maxPixels: job.maxPixels, mediaType: job.mediaType });
  return { width: decoded.width, height: decoded.height, colours: await dominantColours(decoded.png) };
});
