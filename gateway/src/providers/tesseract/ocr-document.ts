import { decodeGray } from '../../media/image/decode-image.js';
import { sniffMediaType } from '../../media/sniff-media-type.js';
import { openPdf } from '../../media/pdf/open-pdf.js';
import { blocksText, layoutFromWords } from '../../media/pdf/layout-from-words.js';
import { readTextLayer } from '../../media/pdf/read-text-layer.js';
import { pdfPageSize, renderPdfPage } from '../../media/pdf/render-pdf-page.js';
import { selectPages } from '../../media/pdf/select-pages.js';
import { ProviderError } from '../_shared/provider-error.js';
import type { OcrPage, OcrRequest, OcrResult } from '../contracts/ocr.js';
import type { OcrEngine } from './ocr-engine.js';
import { recognizeGray } from './recognize-gray.js';
import type { TesseractOptions } from './tesseract-options.js';


function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ProviderError('aborted', 'The OCR request was cancelled.', { code: 'aborted' });
}

/** Runs `task` over `items` with at most `concurrency` in flight, keeping the input order. */
async function mapConcurrent<T, R>(items: T[], concurrency: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await task(items[at]);
    }
  });
  await Promise.all(lanes);
  return results;
}

async function ocrPdf(engine: OcrEngine, options: TesseractOptions, request: OcrRequest): Promise<OcrResult> {
  const doc = await openPdf(request.document);
  try {
    const pages = selectPages(doc.numPages, request.pages, options.maxPages);
    const recognise = async (index: number): Promise<OcrPage> => {
      throwIfAborted(request.signal);
      const page = await doc.getPage(index + 1);
      pdfPageSize(page, options.renderDpi, options.maxPixels);
      const layer = await readTextLayer(page, options.renderDpi);
      if (layer.words.length > 0) {
        const blocks = layoutFromWords(layer.words, layer);
        return { index, width: layer.width, height: layer.height, text: blocksText(blocks), blocks, source: 'text_layer', confidence: 1 };
      }
      // No text layer: a scanned page.
      const image = await renderPdfPage(page, options.renderDpi, options.maxPixels);
      throwIfAborted(request.signal);
      return recognizeGray(engine, image, index, { ...options, signal: request.signal });
    };
    // Rendering happens outside the workers, so one page more than there are workers keeps them busy.
    return { pages: await mapConcurrent(pages, engine.workers + 1, recognise) };
  } finally {
    await doc.destroy();
  }
}

/** The `ocr` capability: images are recognised; PDF pages use their text layer or, when it is empty, are rendered and recognised. */
export async function ocrDocument(engine: OcrEngine, options: TesseractOptions, request: OcrRequest): Promise<OcrResult> {
  throwIfAborted(request.signal);
  const mimeType = request.document.length > 0 ? sniffMediaType(request.document) : null;
  if (mimeType === 'application/pdf') return ocrPdf(engine, options, request);
  const image = await decodeGray(request.document, { maxPixels: options.maxPixels });
  selectPages(1, request.pages, options.maxPages);
  const page = await recognizeGray(engine, image, 0, { ...options, signal: request.signal });
  throwIfAborted(request.signal);
  return { pages: [page] };
}
