import { blocksText } from '../../ocr-layout/reading-order.js';
import type { GrayImage } from '../../media/image/decode-image.js';
import type { OcrBlock, PageLanguage } from '../contracts/ocr.js';
import { identifyLanguage } from '../../ocr-layout/identify-language.js';
import type { OcrEngine } from './ocr-engine.js';
import { installedFor, SCRIPT_LANGUAGES } from './script-languages.js';
import { resizeSmooth } from './preprocess/gray-filters.js';

/** A reading of a page: its blocks and their confidence (0..1). */
export interface LanguageReading {
  blocks: OcrBlock[];
  confidence: number;
}

/** The reading kept, and the languages the page's further readings use. */
export interface LanguageChoice<R extends LanguageReading> {
  reading: R;
  language: PageLanguage;
}

/** A reading by the English model this confident, in Latin letters, is Latin-script text: no script detection. */
const LEGIBLE = 0.6;
/** Below this a reading in the chosen language is unsure, and the script's next candidate is read too. */
const CONFIDENT = 0.85;
/** How much less confident a reading in the language the words show may be and still be kept. */
const LANGUAGE_MARGIN = 0.05;
/** Latin letters a confident English block needs for the page to be read with English as well (a mixed page). */
const MIXED_LATIN_LETTERS = 20;

/** Whether the English reading has a confident block of Latin text: a page in another script that quotes English. */
function hasEnglishBlock(blocks: OcrBlock[]): boolean {
  return blocks.some(
    (block) =>
      block.confidence >= CONFIDENT && (block.text.match(/\p{Script=Latin}/gu)?.length ?? 0) >= MIXED_LATIN_LETTERS,
  );
}

/** Script detection reads small print as Latin, or as nothing: such a page is looked at again twice as large. */
const LOOK_CLOSER_BELOW_PIXELS = 4_000_000;

/**
 * The page's script by Tesseract's script detection, for a page the English model could not read: one
 * it calls Latin (or cannot tell) is looked at again at twice its size, where small Cyrillic, Greek or
 * Japanese print is told apart.
 */
async function detectScript(engine: OcrEngine, image: GrayImage, signal: AbortSignal): Promise<string | undefined> {
  const guess = await engine.detectScript(image, signal);
  if ((guess && guess.script !== 'Latin') || image.width * image.height >= LOOK_CLOSER_BELOW_PIXELS)
    return guess?.script;
  const closer = await engine.detectScript(resizeSmooth(image, image.width * 2, image.height * 2), signal);
  return closer?.script ?? guess?.script;
}

/**
 * Chooses the language of a page from its first reading, made with the English model (`first`), and
 * reads it again where another language is found (`readWith`), so an English page costs what it did:
 * - a confident reading in Latin letters is told apart by its frequent words (English: kept as it is;
 *   French, Polish, ...: read again with that model, kept unless markedly less confident);
 * - otherwise Tesseract's script detection (`--psm 0`) names the script, and the page is read with the
 *   installed models for it: the one its letters point to first (Ukrainian `і`, Japanese kana), the
 *   script's next candidate too when that reading is unsure, the most confident kept; a page that also
 *   has a confident English block is read with English as well;
 * - a script or language with no model installed is reported (`missing`): a page in a script the
 *   installed models cannot read returns no text rather than the English model's garbage.
 */
export async function choosePageLanguage<R extends LanguageReading>(
  engine: OcrEngine,
  image: GrayImage,
  first: R,
  readWith: (languages: string[]) => Promise<R>,
  signal: AbortSignal,
): Promise<LanguageChoice<R>> {
  const installed = await engine.languages();
  const seen = identifyLanguage(blocksText(first.blocks));
  const detected = (reading: R, read: string[], language: string | null, script: string | null, missing?: string) => ({
    reading,
    language: { read, detected: language, script, source: 'detected' as const, ...(missing ? { missing } : {}) },
  });
  const latin = seen.script === 'Latin' && first.confidence >= LEGIBLE;
  const script = latin ? 'Latin' : ((await detectScript(engine, image, signal)) ?? seen.script);
  if (script === undefined) return detected(first, ['eng'], null, null);
  if (script === 'Latin') {
    const language = seen.script === 'Latin' ? seen.language : undefined;
    if (language === undefined || language === 'eng') return detected(first, ['eng'], language ?? null, script);
    if (!installed.includes(language)) return detected(first, ['eng'], language, script, language);
    const again = await readWith([language]);
    return again.confidence >= first.confidence - LANGUAGE_MARGIN
      ? detected(again, [language], language, script)
      : detected(first, ['eng'], 'eng', script);
  }
  const candidates = installedFor(script, installed);
  if (candidates.length === 0) {
    const language = SCRIPT_LANGUAGES[script]?.[0] ?? null;
    return detected({ ...first, blocks: [], confidence: 0 }, [], language, script, language ?? script);
  }
  const withEnglish = hasEnglishBlock(first.blocks) && installed.includes('eng') ? ['eng'] : [];
  const models = (language: string): string[] => [language, ...withEnglish];
  let language = candidates[0];
  let best = await readWith(models(language));
  const told = identifyLanguage(blocksText(best.blocks)).language;
  const next = told !== undefined && told !== language ? told : best.confidence < CONFIDENT ? candidates[1] : undefined;
  if (next !== undefined && next !== language) {
    if (!installed.includes(next)) return detected(best, models(language), next, script, next);
    const other = await readWith(models(next));
    if (
      other.confidence > best.confidence ||
      (next === told && other.confidence >= best.confidence - LANGUAGE_MARGIN)
    ) {
      best = other;
      language = next;
    }
  }
  return detected(best, models(language), language, script);
}
