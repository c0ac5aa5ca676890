import type { MediaDecoder } from '../../media/media-decoder.js';
import { MediaError } from '../../media/media-error.js';
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
 * the OCR result gave it (so box pixels line up), or an image decoded as it is. The decoding runs on
 * the media decoder's threads.
 */
export async function renderDocumentPage(
  media: MediaDecoder,
  { bytes, mediaType }: LoadedDocument,
  pageIndex: number,
  width: number | undefined,
  signal: AbortSignal,
): Promise<RenderedPage> {
  if (mediaType !== 'application/pdf') {
    if (pageIndex !== 0)
      throw new MediaError('invalid_document', 'An image has only page 0.', {
        code: 'page_out_of_range',
        param: 'page',
      });
    const decoded = await media.imageToPng(bytes, mediaType, MAX_PIXELS, signal);
    return {
      page: 0,
      pageCount: 1,
      width: decoded.width,
      height: decoded.height,
      dpi: Math.round(decoded.density ?? 72),
      png: Buffer.from(decoded.png.buffer, decoded.png.byteOffset, decoded.png.byteLength),
    };
  }
  const rendered = await media.renderPdfPage(
    bytes,
    { page: pageIndex, width, defaultDpi: DEFAULT_RENDER_DPI, maxPixels: MAX_PIXELS },
    signal,
  );
  return {
    page: pageIndex,
    pageCount: rendered.pageCount,
    width: rendered.width,
    height: rendered.height,
    dpi: rendered.dpi,
    png: Buffer.from(rendered.png.buffer, rendered.png.byteOffset, rendered.png.byteLength),
  };
}
