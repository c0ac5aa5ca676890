import type { GrayImage } from '../../media/image/decode-image.js';
import type { MediaDecoder } from '../../media/media-decoder.js';
import { blocksText, layoutFromWords } from '../../ocr-layout/layout-from-words.js';
import { selectPages } from './select-pages.js';
import { ProviderError } from '../_shared/provider-error.js';
import type { OcrPage, OcrRequest, OcrResult } from '../contracts/ocr.js';
import type { OcrEngine } from './ocr-engine.js';
import { pooledPagePixels } from './pooled-page-pixels.js';
import { recognizeGray } from './recognize-gray.js';
import type { TesseractOptions } from './tesseract-options.js';

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ProviderError('aborted', 'The OCR request was cancelled.', { code: 'aborted' });
}

/** The page with its resolution and picture areas (and its image, when it has pictures and the request keeps them). */
async function withPictures(
  media: MediaDecoder,
  page: OcrPage,
  image: GrayImage,
  dpi: number,
  { pictures, signal }: OcrRequest,
): Promise<OcrPage> {
  if (!pictures) return page;
  const words = page.blocks.flatMap((block) => block.lines.flatMap((line) => line.words.map((word) => word.bbox)));
  const found = await media.findPictures(image, words, pictures.minSize, signal);
  return { ...page, dpi, pictures: found, ...(pictures.keepImages && found.length > 0 ? { image } : {}) };
}

/**
 * Runs `task` over `items` with at most `concurrency` in flight, keeping the input order. The first
 * failure aborts `stop` (the other items' work), and is thrown once every item in flight has settled.
 */
async function mapConcurrent<T, R>(
  items: T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
  stop: AbortController,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length && !failure) {
      const at = next++;
      try {
        results[at] = await task(items[at]);
      } catch (error) {
        if (!failure) {
          failure = { error };
          stop.abort();
        }
      }
    }
  });
  await Promise.all(lanes);
  if (failure) throw failure.error;
  return results;
}

async function ocrPdf(
  media: MediaDecoder,
  engine: OcrEngine,
  options: TesseractOptions,
  request: OcrRequest,
): Promise<OcrResult> {
  const pdf = await media.openPdf(request.document, options.maxPixels, request.signal);
  const pages = selectPages(pdf.pageCount, request.pages, options.maxPages);
  // One page failing stops the others' work (their reading threads and recognitions) before the request answers.
  const stop = new AbortController();
  const signal = AbortSignal.any([request.signal, stop.signal]);
  const recognise = async (index: number): Promise<OcrPage> => {
    throwIfAborted(signal);
    const content = await media.pdfPage(
      pdf,
      { page: index, dpi: options.renderDpi, maxPixels: options.maxPixels, withImage: request.pictures !== undefined },
      signal,
    );
    let page: OcrPage;
    if ('words' in content) {
      const blocks = layoutFromWords(content.words, content);
      page = {
        index,
        width: content.width,
        height: content.height,
        text: blocksText(blocks),
        blocks,
        source: 'text_layer',
        confidence: 1,
      };
    } else {
      // No text layer: a scanned page.
      throwIfAborted(signal);
      page = await recognizeGray(engine, content.image, index, {
        ...options,
        signal,
        pixels: pooledPagePixels(media.pool, signal),
      });
    }
    return content.image ? withPictures(media, page, content.image, options.renderDpi, { ...request, signal }) : page;
  };
  // Reading a page happens outside the recognition workers, so one page more than there are workers keeps them busy.
  return { pages: await mapConcurrent(pages, engine.workers + 1, recognise, stop) };
}

/** The `ocr` capability: images are recognised; PDF pages use their text layer or, when it is empty, are rendered and recognised. */
export async function ocrDocument(
  media: MediaDecoder,
  engine: OcrEngine,
  options: TesseractOptions,
  request: OcrRequest,
): Promise<OcrResult> {
  throwIfAborted(request.signal);
  if (request.mimeType === 'application/pdf') return ocrPdf(media, engine, options, request);
  selectPages(1, request.pages, options.maxPages);
  const image = await media.imageToGray(request.document, request.mimeType, options.maxPixels, request.signal);
  const page = await recognizeGray(engine, image, 0, {
    ...options,
    signal: request.signal,
    pixels: pooledPagePixels(media.pool, request.signal),
  });
  throwIfAborted(request.signal);
  return { pages: [await withPictures(media, page, image, Math.round(image.density ?? 72), request)] };
}
