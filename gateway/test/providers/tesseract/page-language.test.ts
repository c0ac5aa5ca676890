import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGray, type GrayImage } from '../../../src/media/image/decode-image.js';
import { createEngine } from '../../../src/providers/tesseract/create-engine.js';
import type { OcrEngine } from '../../../src/providers/tesseract/ocr-engine.js';
import { recognizeGray } from '../../../src/providers/tesseract/recognize-gray.js';
import { parseTesseractOptions } from '../../../src/providers/tesseract/tesseract-options.js';
import { makeLanguagePage, type LanguagePageKind, type UdhrLanguage } from '../../support/language-pages.js';
import { observedEngine } from '../../support/observed-engine.js';
import { characterErrorRate } from '../../../../bench/ocr/error-rates.js';

// Languages other than English need the native command and Debian's tesseract-ocr-<lang> packages
// (.ci/run installs fra, rus, jpn and chi-sim); a test whose language is not installed is skipped.
const options = { ...parseTesseractOptions({ type: 'tesseract', engine: 'native' }), workers: 2 };
const inner = createEngine(options);
let installed: readonly string[] = [];
beforeAll(async () => {
  installed = await inner.warm().then(
    () => inner.languages(),
    () => [],
  );
});
afterAll(() => inner.close());

interface Calls {
  readings: string[];
  detections: number;
}

/** The engine, recording the languages of each reading and the script detections; `only` narrows the installed models. */
function recording(only?: string[]): { engine: OcrEngine; calls: Calls } {
  const calls: Calls = { readings: [], detections: 0 };
  const engine: OcrEngine = {
    ...observedEngine(inner, (image, signal, layout, languages = ['eng']) => {
      calls.readings.push(languages.join('+'));
      return inner.recognize(image, signal, layout, languages);
    }),
    detectScript: (image, signal) => {
      calls.detections++;
      return inner.detectScript(image, signal);
    },
    languages: async () => (only ? installed.filter((l) => only.includes(l)) : installed),
  };
  return { engine, calls };
}

const page = async (
  language: UdhrLanguage,
  kind: LanguagePageKind = 'clean',
): Promise<{ image: GrayImage; truth: string }> => {
  const drawn = await makeLanguagePage(language, kind);
  return { image: await decodeGray(drawn.image, { maxPixels: 40_000_000 }), truth: drawn.text };
};

const read = async (engine: OcrEngine, image: GrayImage, languages?: string[]) =>
  recognizeGray(engine, image, 0, {
    ...options,
    signal: new AbortController().signal,
    idleCore: () => false,
    ...(languages ? { languages } : {}),
  });

const cer = (truth: string, text: string, unspaced = false) =>
  unspaced ? characterErrorRate(truth.replace(/\s+/g, ''), text.replace(/\s+/g, '')) : characterErrorRate(truth, text);

describe("a page's language, found by itself", () => {
  it('an English page is read once with English, with no script detection: it costs what it did', async ({ skip }) => {
    if (!installed.includes('eng')) skip();
    const { engine, calls } = recording();
    const { image, truth } = await page('eng');
    const result = await read(engine, image);
    expect(result.language).toMatchObject({ detected: 'eng', script: 'Latin', read: ['eng'], source: 'detected' });
    expect(calls).toEqual({ readings: ['eng'], detections: 0 });
    expect(cer(truth, result.text)).toBeLessThan(0.02);
  });

  it('a French page is read again with French, accents and all', async ({ skip }) => {
    if (!installed.includes('fra')) skip();
    const { engine, calls } = recording();
    const { image, truth } = await page('fra');
    const result = await read(engine, image);
    expect(result.language).toMatchObject({ detected: 'fra', script: 'Latin', read: ['fra'] });
    expect(calls.readings.slice(0, 2)).toEqual(['eng', 'fra']);
    expect(result.text).toMatch(/égaux|liberté|dignité/);
    expect(cer(truth, result.text)).toBeLessThan(0.03);
  });

  it('a Russian page: the script is detected and the page read with Russian', async ({ skip }) => {
    if (!installed.includes('rus') || !installed.includes('osd')) skip();
    const { engine, calls } = recording();
    const { image, truth } = await page('rus');
    const result = await read(engine, image);
    expect(result.language).toMatchObject({ detected: 'rus', script: 'Cyrillic', read: ['rus'] });
    expect(calls.detections).toBe(1);
    expect(result.text).toMatch(/Всеобщая декларация прав человека/);
    expect(cer(truth, result.text)).toBeLessThan(0.05);
  });

  it('Japanese and Chinese pages are told apart and read with their own models', async ({ skip }) => {
    if (!['jpn', 'chi_sim', 'osd'].every((l) => installed.includes(l))) skip();
    const japanese = await page('jpn');
    const chinese = await page('chi_sim');
    const readJapanese = await read(recording().engine, japanese.image);
    const readChinese = await read(recording().engine, chinese.image);
    expect(readJapanese.language).toMatchObject({ detected: 'jpn' });
    expect(readChinese.language).toMatchObject({ detected: 'chi_sim', script: 'Han' });
    // Told nothing, read about as well as with the right model (on these pages the model alone
    // misses 3 to 7 % of characters; the rest is reading order: a split line placed after its neighbour).
    expect(cer(japanese.truth, readJapanese.text, true)).toBeLessThan(0.15);
    expect(cer(chinese.truth, readChinese.text, true)).toBeLessThan(0.15);
    // Written without spaces: none between two Chinese characters.
    expect(readChinese.text).toContain('联合国大会通过并颁布');
  });

  it('named languages skip detection: the page is read with them only', async ({ skip }) => {
    if (!installed.includes('rus')) skip();
    const { engine, calls } = recording();
    const { image } = await page('rus');
    const result = await read(engine, image, ['rus']);
    expect(result.language).toEqual({ read: ['rus'], detected: 'rus', script: 'Cyrillic', source: 'named' });
    expect(calls.detections).toBe(0);
    expect(new Set(calls.readings)).toEqual(new Set(['rus']));
  });

  it('a page in a script with no model installed says so and returns no garbage', async ({ skip }) => {
    if (!installed.includes('rus') || !installed.includes('osd')) skip();
    // The machine's models as seen by a gateway without the Cyrillic ones.
    const { engine } = recording(['eng', 'osd']);
    const { image } = await page('rus');
    const result = await read(engine, image);
    expect(result.language).toMatchObject({ detected: 'rus', script: 'Cyrillic', read: [], missing: 'rus' });
    expect(result.text).toBe('');
  });

  it('a Latin-script page whose model is missing is read with English and says which language it is', async ({
    skip,
  }) => {
    if (!installed.includes('eng')) skip();
    const { engine } = recording(['eng', 'osd']);
    const { image } = await page('fra');
    const result = await read(engine, image);
    expect(result.language).toMatchObject({ detected: 'fra', read: ['eng'], missing: 'fra' });
    expect(result.text).toMatch(/Consid[eé]rant/);
  });
});
