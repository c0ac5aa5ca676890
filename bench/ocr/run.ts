/**
 * OCR benchmark: throughput of the gateway's engine and of Debian's `tesseract` command on the same
 * A4 pages, and their character/word error rates on generated degraded pages.
 *   npx tsx bench/ocr/run.ts [--quick]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTesseractProvider } from '../../gateway/src/providers/tesseract/create-tesseract-provider.js';
import type { ProviderInstance } from '../../gateway/src/providers/types.js';
import { DEGRADATIONS, drawTextImage, makeDegradedPage, makeInvoiceImage, proseLines, type DrawnImage } from '../../gateway/test/support/draw-text.js';
import { characterErrorRate, wordErrorRate } from './error-rates.js';

const run = promisify(execFile);
const quick = process.argv.includes('--quick');

function engine(workers: number, preprocess: boolean): ProviderInstance {
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  return createTesseractProvider({ id: 'bench', options: { type: 'tesseract', workers, preprocess }, dataDir: tmpdir(), logger });
}

async function gatewayText(provider: ProviderInstance, image: DrawnImage): Promise<string> {
  const result = await provider.capabilities.ocr!.ocr({
    model: 'bench',
    document: image.image,
    mimeType: image.mimeType,
    signal: new AbortController().signal,
  });
  return result.pages.map((p) => p.text).join('\n');
}

async function debianText(dir: string, image: DrawnImage, name: string): Promise<string> {
  const file = path.join(dir, `${name}.${image.mimeType === 'image/png' ? 'png' : 'jpg'}`);
  await writeFile(file, image.image);
  const { stdout } = await run('tesseract', [file, 'stdout'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  return stdout;
}

/** An A4 page at 200 DPI: 11 pt body text (30 px), 40 lines. */
function a4Page(seed: number): Promise<DrawnImage> {
  const lines = proseLines(30, 200, 150, 40).map((line, i) => ({ ...line, text: `${seed + i}. ${line.text}` }));
  return drawTextImage(lines, { width: 1654, height: 2339 });
}

function pad(value: string, width: number): string {
  return value.length >= width ? value : value + ' '.repeat(width - value.length);
}
const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;

async function throughput(dir: string): Promise<void> {
  const pages = await Promise.all(Array.from({ length: quick ? 2 : 4 }, (_, i) => a4Page(i * 100)));
  console.log(`\nThroughput: ${pages.length} A4 pages at 200 DPI (1654×2339), warm; ${availableParallelism()} cores\n`);
  const rows: string[][] = [];
  for (const [label, workers, preprocess] of [
    ['gateway, 1 worker, preprocessing', 1, true],
    ['gateway, 1 worker, no preprocessing', 1, false],
    [`gateway, ${Math.min(4, availableParallelism())} workers, preprocessing`, Math.min(4, availableParallelism()), true],
  ] as const) {
    const provider = engine(workers, preprocess);
    await provider.warm!();
    await gatewayText(provider, pages[0]);
    const start = performance.now();
    await Promise.all(pages.map((page) => gatewayText(provider, page)));
    const seconds = (performance.now() - start) / 1000;
    rows.push([label, (pages.length / seconds).toFixed(2), (seconds / pages.length).toFixed(2)]);
    await provider.close();
  }
  await debianText(dir, pages[0], 'warmup');
  const start = performance.now();
  for (const [i, page] of pages.entries()) await debianText(dir, page, `a4-${i}`);
  const seconds = (performance.now() - start) / 1000;
  rows.push(['debian tesseract CLI (OMP_THREAD_LIMIT=1), sequential', (pages.length / seconds).toFixed(2), (seconds / pages.length).toFixed(2)]);
  console.log(`${pad('engine', 56)} ${pad('pages/s', 9)} s/page`);
  for (const row of rows) console.log(`${pad(row[0], 56)} ${pad(row[1], 9)} ${row[2]}`);
}

async function accuracy(dir: string): Promise<void> {
  const names = Object.keys(DEGRADATIONS);
  const sets: { name: string; image: DrawnImage }[] = [];
  for (const name of names) sets.push({ name, image: await makeDegradedPage(name) });
  sets.push({ name: 'invoice_table', image: await makeInvoiceImage() });
  sets.push({ name: 'invoice_rotated_noisy', image: await makeInvoiceImage({ rotate: 1.5, noise: 25, jpegQuality: 30 }) });

  const withPre = engine(1, true);
  const without = engine(1, false);
  await Promise.all([withPre.warm!(), without.warm!()]);
  console.log('\nAccuracy: character / word error rate (lower is better)\n');
  console.log(`${pad('page', 24)} ${pad('gateway CER', 12)} ${pad('WER', 8)} ${pad('no-prep CER', 12)} ${pad('WER', 8)} ${pad('debian CER', 11)} WER`);
  const totals = [0, 0, 0, 0, 0, 0];
  for (const { name, image } of sets) {
    const texts = [await gatewayText(withPre, image), await gatewayText(without, image), await debianText(dir, image, name)];
    const rates = texts.flatMap((text) => [characterErrorRate(image.text, text), wordErrorRate(image.text, text)]);
    rates.forEach((r, i) => (totals[i] += r));
    console.log(
      `${pad(name, 24)} ${pad(pct(rates[0]), 12)} ${pad(pct(rates[1]), 8)} ${pad(pct(rates[2]), 12)} ${pad(pct(rates[3]), 8)} ${pad(pct(rates[4]), 11)} ${pct(rates[5])}`,
    );
  }
  const mean = totals.map((t) => pct(t / sets.length));
  console.log(`${pad('MEAN', 24)} ${pad(mean[0], 12)} ${pad(mean[1], 8)} ${pad(mean[2], 12)} ${pad(mean[3], 8)} ${pad(mean[4], 11)} ${mean[5]}`);
  await Promise.all([withPre.close(), without.close()]);
}

const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-ocr-bench-'));
try {
  if (!process.argv.includes('--accuracy-only')) await throughput(dir);
  await accuracy(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
