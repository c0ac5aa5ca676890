import { availableParallelism, loadavg } from 'node:os';
import type { GrayImage } from '../../media/image/decode-image.js';
import { makeBlock, makeLine, upperMedian } from '../../ocr-layout/box-geometry.js';
import { blocksText } from '../../ocr-layout/reading-order.js';
import { orderBlocks } from '../../ocr-layout/reading-order.js';
import type { BoxCoordinates, OcrBlock, OcrLine, OcrPage, OcrWord } from '../contracts/ocr.js';
import { dropDoubtfulWords, lineSkew, pageConfidence } from './reading-quality.js';
import type { OcrEngine, PageLayout } from './ocr-engine.js';
import { blocksToOriginal, identityTransform, type PageTransform } from './preprocess/page-transform.js';
import { inThreadPixels, type PagePixels } from './survey-page.js';
import { cropRows, recognizeInBands, spareWorkers } from './recognize-in-bands.js';
import { choosePageLanguage } from './page-language.js';
import { markBlockLanguages } from '../../ocr-layout/identify-language.js';
import type { PageLanguage } from '../contracts/ocr.js';
import { scriptOf } from './script-languages.js';

export interface RecognizeOptions {
  preprocess: boolean;
  maxPixels: number;
  signal: AbortSignal;
  /** Whether the machine has a core to spare right now (default: from the load average). */
  idleCore?: () => boolean;
  /** Where the page's pixel work runs (default: this thread). */
  pixels?: PagePixels;
  /** Languages the request named (Tesseract's codes, installed): read in them, no detection. Absent: detected. */
  languages?: readonly string[];
  /** The pages the engine's provider is reading now, this one included (see spareWorkers). */
  pagesInFlight?: PagesInFlight;
}

/** How many pages one provider is reading at this moment, each from its decoding to its answer. */
export class PagesInFlight {
  count = 0;

  async track<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      this.count--;
    }
  }
}

/** `work`, counted in `pages` when the provider counts them. */
export const counted = <T>(pages: PagesInFlight | undefined, work: () => Promise<T>): Promise<T> =>
  pages ? pages.track(work) : work();

/** The pages other than this one its provider is reading now (none known: 0). */
const otherPages = (options: RecognizeOptions): number => Math.max(0, (options.pagesInFlight?.count ?? 1) - 1);

/** A reading at or above this confidence is kept; below it, the page is also read other ways. */
const CONFIDENT = 0.85;

interface Reading {
  image: GrayImage;
  transform: PageTransform;
  blocks: OcrBlock[];
  confidence: number;
}

/**
 * A "line" several times taller than the page's lines is a column of short items (prices on a receipt)
 * that automatic segmentation took for vertical text; its words are garbage.
 */
function strayTallLines(blocks: OcrBlock[]): OcrLine[] {
  const lines = blocks.flatMap((b) => b.lines);
  const height = upperMedian(lines.map((l) => l.bbox[3] - l.bbox[1]));
  return lines.filter((l) => l.words.length >= 3 && l.bbox[3] - l.bbox[1] > 2.5 * height);
}
const hasStrayTallLines = (blocks: OcrBlock[]): boolean => strayTallLines(blocks).length > 0;

/** Blocks keeping only the words `keep` accepts (empty lines and blocks go), each box moved down by `dy`. */
function mapWords(blocks: OcrBlock[], keep: (word: OcrWord) => boolean, dy = 0): OcrBlock[] {
  return blocks.flatMap((block) => {
    const lines = block.lines
      .map((line) =>
        line.words
          .filter(keep)
          .map((w) => ({ ...w, bbox: [w.bbox[0], w.bbox[1] + dy, w.bbox[2], w.bbox[3] + dy] as BoxCoordinates })),
      )
      .filter((words) => words.length > 0)
      .map((words) => makeLine(words));
    return lines.length > 0 ? [makeBlock(lines, block.kind)] : [];
  });
}

/** Below this confidence a page is mostly noise or unreadable. */
const LEGIBLE = 0.6;
/** Skew (degrees, measured on the words) from which the straightened page is read as well. */
const SKEWED = 0.5;
/** How much less confident a straightened reading may be and still win (its rows and columns are straight). */
const STRAIGHT_BONUS = 0.03;
/**
 * The bonus holds from this turn (degrees) up: below it Tesseract's own line finding follows the slant
 * and the reading as it came has straight rows too (eurotext, turned 0.78°: "über" read "iiber" as it
 * came and "tiber" straightened, "o" read "0").
 */
const BONUS_FROM_DEGREES = 1;
const straightBonus = (transform: PageTransform): number =>
  Math.abs(transform.rotation) >= BONUS_FROM_DEGREES ? STRAIGHT_BONUS : 0;

/**
 * Below this many pixels a page may be read as one block of lines on a spare worker while its layout
 * reading runs: a receipt or table whose columns that reading misreads is then read again at no wait.
 */
const SPECULATE_BELOW_PIXELS = 1_000_000;

/** Whether the machine has a core to spare (other processes count too: on a busy machine a second reading only slows the first). */
const hasIdleCore = (): boolean => loadavg()[0] <= availableParallelism() - 1;

interface Speculation {
  reading: Promise<Reading | undefined>;
  cancel: () => void;
}

/**
 * Starts reading a small page as one block on the native engine when two workers are idle (one for
 * the layout reading) and the machine has a core to spare: one page at a time the second core has
 * nothing else to do, and the process is killed as soon as its reading is not needed, or as soon as
 * another reading waits for a worker. Under load (no idle worker, or a busy machine) nothing is started.
 */
function speculateBlock(
  engine: OcrEngine,
  image: GrayImage,
  options: RecognizeOptions,
  read: (signal: AbortSignal) => Promise<Reading>,
): Speculation | undefined {
  const small = image.width * image.height < SPECULATE_BELOW_PIXELS;
  if (
    engine.kind !== 'native' ||
    !small ||
    spareWorkers(engine, otherPages(options)) < 2 ||
    !(options.idleCore ?? hasIdleCore)()
  )
    return undefined;
  const signal = options.signal;
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  signal.addEventListener('abort', cancel, { once: true });
  // Speculation yields: once another reading waits for a worker (a second page arrived), it is stopped.
  const stopWatching = engine.onPageWaiting(cancel);
  const reading = read(controller.signal)
    .catch(() => undefined)
    .finally(() => {
      signal.removeEventListener('abort', cancel);
      stopWatching();
    });
  return { reading, cancel };
}

/**
 * Recognises one page image; boxes are in `image`'s pixels. The page is read as it is with Tesseract's
 * own layout analysis (Tesseract binarises on its own), so clean pages are read once. When the words
 * show the page is skewed, or the reading is unsure (low confidence, measured grain, or a column
 * misread as vertical text), the page is preprocessed (deskewed, denoised, contrast, rules, upscaling: see preprocessPage)
 * and read again (a page whose pixels show a clear skew is straightened first and read only that way:
 * see lineProfile); rows whose layout was misread (a column of short items taken for vertical text) are
 * read again as one block of lines, and an unsure page as a whole; the most confident reading is kept.
 * Blocks are ordered for reading on the (straightened) page, then mapped back. The first reading is
 * English's (or the named languages'); the page's language is chosen from it (see choosePageLanguage)
 * and every reading after it uses that language's models.
 */
export async function recognizeGray(
  engine: OcrEngine,
  image: GrayImage,
  index: number,
  options: RecognizeOptions,
): Promise<OcrPage> {
  const pixels = options.pixels ?? inThreadPixels;
  const named = options.languages;
  let language: PageLanguage | undefined = named
    ? { read: [...named], detected: named[0], script: scriptOf(named[0]) ?? null, source: 'named' }
    : undefined;
  // The first reading is English's unless the request named languages; detection may change them.
  let languages: readonly string[] = named ?? ['eng'];
  const read = async (
    page: GrayImage,
    transform: PageTransform,
    layout: PageLayout,
    signal = options.signal,
  ): Promise<Reading> => {
    const blocks = await recognizeInBands(
      engine,
      page,
      signal,
      layout,
      (whole) => pixels.blankCut(whole),
      languages,
      otherPages(options),
    );
    return { image: page, transform, blocks, confidence: pageConfidence(blocks) };
  };
  const finish = (best: Reading): OcrPage => {
    const ordered = orderBlocks(dropDoubtfulWords(best.blocks), best.image);
    const original = blocksToOriginal(best.transform, ordered);
    const blocks = language ? markBlockLanguages(original, language) : original;
    return {
      index,
      width: image.width,
      height: image.height,
      text: blocksText(blocks),
      blocks,
      source: 'ocr',
      // The whole reading's confidence: dropping doubtful words does not make the page any more legible.
      confidence: Math.round(best.confidence * 1000) / 1000,
      ...(language ? { language } : {}),
    };
  };
  const asIs = identityTransform(image.width, image.height);
  const survey = await pixels.survey(image, { preprocess: options.preprocess, maxPixels: options.maxPixels });
  if (survey.kind === 'blank') return finish({ image, transform: asIs, blocks: [], confidence: 0 });
  // Cleaned, grain is still grain-sized marks: the few words that stand out of it are read on their
  // own, on clean paper (read with the grain, Tesseract finds no text line at all).
  /** The page's language from its first reading (see choosePageLanguage); the readings after it use that language. */
  const withLanguage = async (first: Reading): Promise<Reading> => {
    if (language) return first;
    // Script detection looks at the page as it came: denoising for reading can thin small strokes it needs.
    const chosen = await choosePageLanguage(
      engine,
      image,
      first,
      (models) => {
        languages = models;
        return read(first.image, first.transform, 'auto');
      },
      options.signal,
    );
    language = chosen.language;
    languages = chosen.language.read.length > 0 ? chosen.language.read : ['eng'];
    return chosen.reading;
  };
  if (survey.kind === 'distinct') return finish(await withLanguage(await read(survey.image, asIs, 'auto')));
  // A page whose pixels show a clear skew and that needs nothing else is straightened first and read
  // once: read as it comes, its reading would only be compared with the straightened one, which wins.
  // When preprocessing does more (rules erased), the page is still read both ways: on a ruled invoice
  // or table the reading as it came can be the better one. Likewise a page whose grain measures noisy
  // and that needs nothing but denoising is read denoised first (read as it comes, grain costs words:
  // the denoised reading won on every such benchmark page), and as it comes only when that reading is unsure.
  const { noisy, cleaned, preparedFirst } = survey;
  const onlyTurned = preparedFirst?.transform.rotation !== 0 && preparedFirst?.steps.length === 1;
  // Only cleaned (denoised): no step beyond cleanPage's, and it removed noise.
  const onlyDenoised =
    noisy && cleaned && cleaned.steps.length > 0 && preparedFirst?.steps.length === cleaned.steps.length;
  const denoisedFirst = onlyDenoised ? preparedFirst : undefined;
  const prepared = onlyTurned ? preparedFirst : denoisedFirst;
  const first = prepared ? read(prepared.image, prepared.transform, 'auto') : read(image, asIs, 'auto');
  const asBlock = prepared
    ? undefined
    : speculateBlock(engine, image, options, (signal) => read(image, asIs, 'block', signal));
  let best: Reading;
  try {
    best = await withLanguage(await first);
  } catch (error) {
    asBlock?.cancel();
    throw error;
  }
  // Read in another language than English, the page's English reading as a block is of no use.
  if (languages.join('+') !== 'eng') asBlock?.cancel();
  // A page in a script no installed model reads: nothing more to read.
  if (language?.read.length === 0) return finish(best);
  // A confident reading, or one of noise, is not read as a block: the spare worker is let go at once.
  if (best.confidence >= CONFIDENT || best.confidence < LEGIBLE) asBlock?.cancel();
  if (denoisedFirst && best.confidence < CONFIDENT) {
    const asItCame = await read(image, asIs, 'auto');
    if (asItCame.confidence > best.confidence + straightBonus(denoisedFirst.transform)) best = asItCame;
  }
  // Where the words cannot tell (short lines), the pixels can: preprocessing measures the skew.
  const skew = lineSkew(best.blocks);
  // Grain the engine reads through with some confidence still costs words: such a page is read
  // denoised as well, and the more confident reading kept. A page where the engine found no word is
  // read again only when, cleaned, its marks are the size of text, not of grain.
  const unsure = best.confidence < CONFIDENT || noisy;
  if (options.preprocess && !prepared && (skew === undefined || Math.abs(skew) >= SKEWED || unsure)) {
    const textFound = best.blocks.length > 0;
    const again =
      preparedFirst && textFound
        ? preparedFirst
        : await pixels.preprocess(image, { maxPixels: options.maxPixels, textFound, onlyIfTurned: !unsure }, cleaned);
    const straightened = again.transform.rotation !== 0;
    if (!again.illegible && again.steps.length > 0 && (straightened || unsure)) {
      const reading = await read(again.image, again.transform, 'auto');
      if (reading.confidence + straightBonus(again.transform) > best.confidence) best = reading;
    }
  }
  const stray = strayTallLines(best.blocks);
  const readsAsBlock = stray.length === 0 && best.confidence >= LEGIBLE && best.confidence < CONFIDENT;
  if (!readsAsBlock || best.image !== image) asBlock?.cancel();
  if (stray.length > 0) {
    // Only the rows the misread column runs through are read again, as one block of lines: the rest of
    // the page was read well, and reading it twice would double the time.
    const pad = upperMedian(best.blocks.flatMap((b) => b.lines.map((l) => l.bbox[3] - l.bbox[1])));
    const top = Math.max(0, Math.floor(Math.min(...stray.map((l) => l.bbox[1])) - pad));
    const bottom = Math.min(best.image.height, Math.ceil(Math.max(...stray.map((l) => l.bbox[3])) + pad));
    const inBand = (w: OcrWord): boolean => (w.bbox[1] + w.bbox[3]) / 2 >= top && (w.bbox[1] + w.bbox[3]) / 2 < bottom;
    const band = await engine.recognize(cropRows(best.image, top, bottom), options.signal, 'block', languages);
    const blocks = [...mapWords(best.blocks, (w) => !inBand(w)), ...mapWords(band, () => true, top)];
    const reading: Reading = {
      image: best.image,
      transform: best.transform,
      blocks,
      confidence: pageConfidence(blocks),
    };
    if (reading.confidence > best.confidence || !hasStrayTallLines(reading.blocks)) best = reading;
  } else if (readsAsBlock) {
    // Reading as one block helps a page whose layout was misread, not one that is mostly noise (where
    // it is also very slow: every speck becomes a candidate character).
    const early = best.image === image ? await asBlock?.reading : undefined;
    const reading = early ?? (await read(best.image, best.transform, 'block'));
    if (reading.confidence > best.confidence) best = reading;
  }
  return finish(best);
}
