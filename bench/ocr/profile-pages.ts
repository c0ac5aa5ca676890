/**
 * Where one page's time goes in the gateway's recogniser: each engine call (layout, size, ms) and the
 * rest (decoding, preprocessing, ordering), beside the `tesseract` command on the same page.
 *   npx tsx bench/ocr/profile-pages.ts [--engine native|wasm] <category or page name>...
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeGray } from '../../gateway/src/media/image/decode-image.js';
import { createEngine } from '../../gateway/src/providers/tesseract/create-engine.js';
import type { OcrEngine } from '../../gateway/src/providers/tesseract/ocr-engine.js';
import { pageConfidence } from '../../gateway/src/providers/tesseract/reading-quality.js';
import { estimateNoise } from '../../gateway/src/providers/tesseract/preprocess/estimate-noise.js';
import { lineProfile } from '../../gateway/src/providers/tesseract/preprocess/line-profile.js';
import { preprocessPage } from '../../gateway/src/providers/tesseract/preprocess/preprocess-page.js';
import { recognizeGray } from '../../gateway/src/providers/tesseract/recognize-gray.js';
import { parseTesseractOptions } from '../../gateway/src/providers/tesseract/tesseract-options.js';
import { characterErrorRate } from './error-rates.js';
import { benchPages } from './pages.js';
import { realPages } from './real-pages.js';

const exec = promisify(execFile);
const args = process.argv.slice(2);
const at = args.indexOf('--engine');
const kind = at >= 0 ? (args.splice(at, 2)[1] as 'native' | 'wasm') : 'native';
const wanted = new Set(args);
const options = parseTesseractOptions({ type: 'tesseract', engine: kind, workers: 2 });
const inner = createEngine(options);
const calls: string[] = [];
const engine: OcrEngine = {
  ...inner,
  kind: inner.kind,
  workers: inner.workers,
  queues: () => inner.queues(),
  recognize: async (image, signal, layout = 'auto') => {
    const start = performance.now();
    const blocks = await inner.recognize(image, signal, layout);
    const words = blocks.flatMap((b) => b.lines.flatMap((l) => l.words));
    calls.push(
      `${layout} ${image.width}x${image.height} ${Math.round(performance.now() - start)} ms, ${words.length} words, confidence ${pageConfidence(blocks).toFixed(3)}`,
    );
    return blocks;
  },
};
const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-ocr-profile-'));
try {
  await inner.warm();
  const pages = [...(await benchPages()), ...(await realPages())].filter(
    (p) => wanted.has(p.category) || wanted.has(p.name),
  );
  for (const page of pages) {
    calls.length = 0;
    const start = performance.now();
    const image = await decodeGray(page.image.image, { maxPixels: options.maxPixels });
    const result = await recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal });
    const ours = performance.now() - start;
    const file = path.join(dir, `${page.name}.${page.image.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`);
    await writeFile(file, page.image.image);
    const t = performance.now();
    const { stdout } = await exec('tesseract', [file, 'stdout'], { maxBuffer: 64 << 20 });
    const theirs = performance.now() - t;
    console.log(
      `${page.category}/${page.name} ${image.width}x${image.height}: gateway ${Math.round(ours)} ms CER ${(characterErrorRate(page.image.text, result.text) * 100).toFixed(1)}%, ` +
        `command ${Math.round(theirs)} ms CER ${(characterErrorRate(page.image.text, stdout) * 100).toFixed(1)}%`,
    );
    for (const call of calls) console.log(`  ${call}`);
    const t2 = performance.now();
    const prepared = await preprocessPage(image, {
      maxPixels: options.maxPixels,
      textFound: !calls[0]?.includes(' 0 words'),
    });
    console.log(
      `  preprocess ${Math.round(performance.now() - t2)} ms (noise ${estimateNoise(image).toFixed(1)}): ${prepared.steps.join(', ')}`,
    );
    const profile = lineProfile(image);
    console.log(
      `  pixels before reading: text lines ${profile.lines ? 'yes' : 'no'}, clear skew ${profile.clearSkew?.toFixed(2) ?? 'none'}`,
    );
  }
} finally {
  await inner.close();
  await rm(dir, { recursive: true, force: true });
}
