import type { GrayImage } from '../../media/image/decode-image.js';
import type { MediaDecoder } from '../../media/media-decoder.js';
import { sharedGray } from '../../media/work-pool/work-task.js';
import { taskModule } from '../../media/work-pool/task-module.js';
import type { WorkPool } from '../../media/work-pool/work-pool.js';
import { layoutFromWords } from '../../ocr-layout/layout-from-words.js';
import { blocksText } from '../../ocr-layout/reading-order.js';
import { ProviderError } from '../_shared/provider-error.js';
import { tracedStage } from '../_shared/traced-stage.js';
import type { StageTracer } from '../contracts/stage-tracer.js';
import type { OcrPage, OcrRequest, OcrResult } from '../contracts/ocr.js';
import type { OcrEngine } from './ocr-engine.js';
import { counted, recognizeGray, type RecognizeOptions } from './recognize-gray.js';
import { tesseractLanguage } from './script-languages.js';
import type { PagePixels } from './survey-page.js';
import type { TesseractOptions } from './tesseract-options.js';

/** The engine's settings, and the count of pages its provider reads at once (see spareWorkers). */
export type DocumentReadingOptions = TesseractOptions & Pick<RecognizeOptions, 'pagesInFlight'>;

const PAGE_TASKS = taskModule(import.meta.url, 'page-tasks');

/** A page's pixel work (survey, preprocessing, the cut, PNG encoding) on the work pool's threads, for one request (`signal`). */
export function pooledPagePixels(pool: WorkPool, signal: AbortSignal): PagePixels {
  return {
    survey: (image, options) =>
      pool.run({ image: sharedGray(image), options }, { module: PAGE_TASKS, name: 'survey', signal }),
    preprocess: (image, options, cleaned) =>
      pool.run({ image: sharedGray(image), options, cleaned }, { module: PAGE_TASKS, name: 'preprocess', signal }),
    blankCut: (image) => pool.run({ image: sharedGray(image) }, { module: PAGE_TASKS, name: 'blankCut', signal }),
    png: (image) => pool.run({ image: sharedGray(image) }, { module: PAGE_TASKS, name: 'png', signal }),
  };
}

/**
 * The 0-based pages to process: all pages, or the requested ones (deduplicated, in document order).
 * Rejects indices outside the document and selections over `maxPages`.
 */
function selectPages(pageCount: number, requested: number[] | undefined, maxPages: number): number[] {
  let pages: number[];
  if (requested === undefined) {
    pages = Array.from({ length: pageCount }, (_, i) => i);
  } else {
    const outside = requested.filter((p) => !Number.isInteger(p) || p < 0 || p >= pageCount);
    if (outside.length > 0) {
      throw new ProviderError(
        'invalid_input',
        `Page ${outside[0]} does not exist: the document has ${pageCount} page${pageCount === 1 ? '' : 's'} (0-based indices 0 to ${pageCount - 1}).`,
        { code: 'page_out_of_range', param: 'pages' },
      );
    }
    pages = [...new Set(requested)].sort((a, b) => a - b);
  }
  if (pages.length > maxPages) {
    throw new ProviderError(
      'too_large',
      `${pages.length} pages selected, over the max_pages limit of ${maxPages}. Select fewer pages with \`pages\` or raise max_pages.`,
      { code: 'too_many_pages', param: 'pages' },
    );
  }
  return pages;
}

/** The languages the request named, each one the engine has a model for; undefined when it named none (detection). */
async function namedLanguages(engine: OcrEngine, request: OcrRequest): Promise<string[] | undefined> {
  if (!request.languages || request.languages.length === 0) return undefined;
  const unknown = request.languages.find((name) => tesseractLanguage(name) === undefined);
  if (unknown !== undefined) {
    throw new ProviderError(
      'invalid_input',
      `'${unknown}' is not a language code: name languages by Tesseract's codes (fra, rus, chi_sim, ...) or ISO 639-1 (fr, ru, zh).`,
      { code: 'invalid_value', param: 'languages' },
    );
  }
  const named = [...new Set(request.languages.map((name) => tesseractLanguage(name) as string))];
  const installed = await engine.languages();
  const absent = named.filter((language) => !installed.includes(language) || language === 'osd');
  if (absent.length > 0) {
    throw new ProviderError(
      'invalid_input',
      `No OCR model is installed for ${absent.join(', ')} (installed: ${installed.filter((l) => l !== 'osd').join(', ')}). Add it in the console (Models → OCR languages) or with POST /v1/local-models/downloads {"repo": "tesseract-ocr/tessdata_fast", "file": "${absent[0]}.traineddata"}, or on Debian: apt-get install tesseract-ocr-${absent[0].replace('_', '-')}; or leave 'languages' out to detect each page's language.`,
      { code: 'ocr_language_not_installed', param: 'languages' },
    );
  }
  return named;
}

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
  // A page in a script no installed model reads was not read: its ink is text, not pictures.
  if (!pictures || page.language?.read.length === 0) return page;
  const words = page.blocks.flatMap((block) => block.lines.flatMap((line) => line.words.map((word) => word.bbox)));
  const { pictures: found, rules } = await media.findPictures(image, words, pictures.minSize, signal);
  return { ...page, dpi, pictures: found, rules, ...(pictures.keepImages && found.length > 0 ? { image } : {}) };
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
  options: DocumentReadingOptions,
  request: OcrRequest,
  tracer: StageTracer | undefined,
): Promise<OcrResult> {
  const languages = await namedLanguages(engine, request);
  const pdf = await tracedStage(tracer, 'ocr open pdf', {}, () =>
    media.openPdf(request.document, options.maxPixels, request.signal),
  );
  const pages = selectPages(pdf.pageCount, request.pages, options.maxPages);
  // One page failing stops the others' work (their reading threads and recognitions) before the request answers.
  const stop = new AbortController();
  const signal = AbortSignal.any([request.signal, stop.signal]);
  const recognise = async (index: number): Promise<OcrPage> => {
    throwIfAborted(signal);
    const onPage = { 'switchyard.ocr.page': index };
    const content = await tracedStage(tracer, 'ocr page decode', onPage, () =>
      media.pdfPage(
        pdf,
        {
          page: index,
          dpi: options.renderDpi,
          maxPixels: options.maxPixels,
          withImage: request.pictures !== undefined,
        },
        signal,
      ),
    );
    let page: OcrPage;
    if ('words' in content) {
      const layout = tracer?.start('ocr page layout', {
        'switchyard.ocr.page': index,
        'switchyard.ocr.source': 'text_layer',
      });
      const blocks = layoutFromWords(content.words, content);
      layout?.end();
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
      page = await tracedStage(tracer, 'ocr page recognise', { 'switchyard.ocr.page': index }, () =>
        recognizeGray(engine, content.image, index, {
          ...options,
          languages,
          signal,
          pixels: pooledPagePixels(media.pool, signal),
        }),
      );
    }
    return content.image ? withPictures(media, page, content.image, options.renderDpi, { ...request, signal }) : page;
  };
  // Reading a page happens outside the recognition workers, so one page more than there are workers keeps them busy.
  const read = (index: number) => counted(options.pagesInFlight, () => recognise(index));
  return { pages: await mapConcurrent(pages, engine.workers + 1, read, stop) };
}

/** The `ocr` capability: images are recognised; PDF pages use their text layer or, when it is empty, are rendered and recognised. */
export async function ocrDocument(
  media: MediaDecoder,
  engine: OcrEngine,
  options: DocumentReadingOptions,
  request: OcrRequest,
  tracer?: StageTracer,
): Promise<OcrResult> {
  throwIfAborted(request.signal);
  if (request.mimeType === 'application/pdf') return ocrPdf(media, engine, options, request, tracer);
  selectPages(1, request.pages, options.maxPages);
  return counted(options.pagesInFlight, async () => {
    const languages = await namedLanguages(engine, request);
    const onPage = { 'switchyard.ocr.page': 0 };
    const image = await tracedStage(tracer, 'ocr page decode', onPage, () =>
      media.imageToGray(request.document, request.mimeType, options.maxPixels, request.signal),
    );
    const page = await tracedStage(tracer, 'ocr page recognise', { 'switchyard.ocr.page': 0 }, () =>
      recognizeGray(engine, image, 0, {
        ...options,
        languages,
        signal: request.signal,
        pixels: pooledPagePixels(media.pool, request.signal),
      }),
    );
    throwIfAborted(request.signal);
    return { pages: [await withPictures(media, page, image, Math.round(image.density ?? 72), request)] };
  });
}
