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
import {
  DEGRADATIONS,
  DEGRADATION_VARIANTS,
  drawTextImage,
  makeDegradedPage,
  makeInvoiceImage,
  makeSecondInvoiceImage,
  makeVariantPage,
  proseLines,
  type DrawnImage,
} from '../../gateway/test/support/draw-text.js';
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

interface BenchPage {
  name: string;
  /** Which set the page belongs to: the first prose text and invoice, or their variants. */
  set: 'seed 1' | 'variants';
  image: DrawnImage;
}

async function accuracyPages(): Promise<BenchPage[]> {
  const pages: BenchPage[] = [];
  for (const name of Object.keys(DEGRADATIONS)) pages.push({ name, set: 'seed 1', image: await makeDegradedPage(name) });
  pages.push({ name: 'invoice_table', set: 'seed 1', image: await makeInvoiceImage() });
  pages.push({ name: 'invoice_rotated_noisy', set: 'seed 1', image: await makeInvoiceImage({ rotate: 1.5, noise: 25, jpegQuality: 30 }) });
  for (const name of Object.keys(DEGRADATION_VARIANTS)) pages.push({ name, set: 'variants', image: await makeVariantPage(name) });
  pages.push({ name: 'invoice2_table', set: 'variants', image: await makeSecondInvoiceImage() });
  pages.push({
    name: 'invoice2_rotated_noisy',
    set: 'variants',
    image: await makeSecondInvoiceImage({ rotate: -2, noise: 22, jpegQuality: 35, seed: 9 }),
  });
  return pages;
}

/** One row of rates: gateway CER, WER, without preprocessing CER, WER, Debian CER, WER. */
function formatRow(label: string, rates: number[], note = ''): string {
  const cells = rates.map(pct);
  return `${pad(label, 24)} ${pad(cells[0], 12)} ${pad(cells[1], 8)} ${pad(cells[2], 12)} ${pad(cells[3], 8)} ${pad(cells[4], 11)} ${pad(cells[5], 8)}${note}`;
}

function meanRates(rows: number[][]): number[] {
  return rows[0].map((_, i) => rows.reduce((sum, row) => sum + row[i], 0) / rows.length);
}

async function accuracy(dir: string): Promise<void> {
  const pages = await accuracyPages();
  const withPre = engine(1, true);
  const without = engine(1, false);
  await Promise.all([withPre.warm!(), without.warm!()]);
  console.log('\nAccuracy: character / word error rate (lower is better); "worse" marks the gateway behind Debian\n');
  console.log(`${pad('page', 24)} ${pad('gateway CER', 12)} ${pad('WER', 8)} ${pad('no-prep CER', 12)} ${pad('WER', 8)} ${pad('debian CER', 11)} WER`);
  const rows: { set: BenchPage['set']; rates: number[] }[] = [];
  for (const { name, set, image } of pages) {
    const texts = [await gatewayText(withPre, image), await gatewayText(without, image), await debianText(dir, image, name)];
    const rates = texts.flatMap((text) => [characterErrorRate(image.text, text), wordErrorRate(image.text, text)]);
    rows.push({ set, rates });
    const worse = [rates[0] > rates[4] ? 'CER' : '', rates[1] > rates[5] ? 'WER' : ''].filter(Boolean).join('+');
    console.log(formatRow(name, rates, worse ? `worse ${worse}` : ''));
  }
  for (const set of ['seed 1', 'variants'] as const) {
    console.log(formatRow(`MEAN ${set}`, meanRates(rows.filter((r) => r.set === set).map((r) => r.rates))));
  }
  console.log(formatRow(`MEAN all (${rows.length})`, meanRates(rows.map((r) => r.rates))));
  await Promise.all([withPre.close(), without.close()]);
}

const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-ocr-bench-'));
try {
  if (!process.argv.includes('--accuracy-only')) await throughput(dir);
  await accuracy(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
