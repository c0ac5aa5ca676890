import sharp from 'sharp';
import { decodeToPng, grayToPng } from '../../media/image/decode-image.js';
import { openPdf } from '../../media/pdf/open-pdf.js';
import { renderPdfPage } from '../../media/pdf/render-pdf-page.js';
import { ProviderError } from '../../providers/_shared/provider-error.js';
import type { LoadedDocument } from '../files/document-source.js';

const MAX_PIXELS = 60_000_000;
/** The local OCR engine's own render resolution, so a page rendered without a width lines up with its boxes. */
const DEFAULT_RENDER_DPI = 200;

export interface RenderedPage {
  page: number;
  pageCount: number;
  width: number;
  height: number;
  /** Pixels per inch of the rendering (an image's own density, 72 when it names none). */
  dpi: number;
  png: Buffer;
}

/**
 * A page of a document as a PNG, for showing OCR boxes over it: a PDF page rendered at the width
 * the OCR result gave it (so box pixels line up), or an image decoded as it is.
 */
export async function renderDocumentPage({ bytes, mediaType }: LoadedDocument, pageIndex: number, width?: number): Promise<RenderedPage> {
  if (mediaType !== 'application/pdf') {
    if (pageIndex !== 0) throw new ProviderError('invalid_request', 'An image has only page 0.', { code: 'page_out_of_range', param: 'page' });
    const png = await decodeToPng(bytes, { maxPixels: MAX_PIXELS });
    const metadata = await sharp(png).metadata();
    return { page: 0, pageCount: 1, width: metadata.width ?? 0, height: metadata.height ?? 0, dpi: Math.round((await sharp(bytes).metadata().catch(() => metadata)).density ?? 72), png };
  }
  const pdf = await openPdf(bytes);
  try {
    if (pageIndex >= pdf.numPages) {
      throw new ProviderError('invalid_request', `The PDF has ${pdf.numPages} page(s); page ${pageIndex} does not exist (pages are 0-based).`, { code: 'page_out_of_range', param: 'page' });
    }
    const page = await pdf.getPage(pageIndex + 1);
    const dpi = width ? dpiForWidth(page.getViewport({ scale: 1 }).width, width) : DEFAULT_RENDER_DPI;
    const gray = await renderPdfPage(page, dpi, MAX_PIXELS);
    return { page: pageIndex, pageCount: pdf.numPages, width: gray.width, height: gray.height, dpi: Math.round(dpi), png: await grayToPng(gray) };
  } finally {
    await pdf.destroy();
  }
}

/** The DPI that renders a page `pointsWide` points wide at `width` pixels: OCR renders at whole DPIs, so prefer the whole one. */
function dpiForWidth(pointsWide: number, width: number): number {
  const exact = (width * 72) / pointsWide;
  const whole = Math.round(exact);
  return Math.ceil((pointsWide * whole) / 72) === width ? whole : exact;
}
