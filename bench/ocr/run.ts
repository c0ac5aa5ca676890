/**
 * OCR benchmark: the gateway's engines (native `tesseract` through the gateway, tesseract.js) beside
 * Debian's `tesseract` command on the same pages, under the same load (runs are interleaved page by
 * page). Accuracy per category (CER, WER, bag-of-words F1, box IoU, pages/s) on bench/ocr/pages.ts and
 * the real scans in bench/ocr/real, structured OCR's field accuracy on public invoices and receipts
 * (bench/ocr/structured-fields.ts; --no-structured leaves it out), then throughput on A4 pages one and two at a time, then one A4 page's
 * latency through `POST /v1/ocr` on the built gateway (p50/p95, needs `npm run build:gateway`).
 * Languages (bench/ocr/language-accuracy.ts): per-language CER on real translated text, the gateway told
 * nothing beside the command given the right language; --no-languages leaves it out, --languages-only runs it alone.
 * Tables (bench/ocr/table-accuracy.ts): cell accuracy and row/column structure on tables of real data, ruled,
 * unruled and over two pages; --no-tables leaves it out, --tables-only runs it alone (--tables <name>,... some of them).
 * Pages/s per category is measured one page at a time and, unless --no-pairs, two at a time (the category's pages in pairs).
 * The command runs with one thread (OMP_THREAD_LIMIT=1), its fastest setting here; the A4 throughput also times its default threads.
 *   npx tsx bench/ocr/run.ts [--quick] [--pages] [--no-wasm] [--no-pairs] [--accuracy-only] [--throughput-only] [--no-http]
 *     [--no-languages] [--languages-only] [--languages <code>[,<code>...]] [--no-tables] [--tables-only] [--tables <name>,...]
 *     [--only <category>[,<category>...]] [--dump <dir>]
 * --only keeps the named categories (or pages); --dump writes each engine's text per page beside the truth.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { blocksText } from '../../gateway/src/ocr-layout/reading-order.js';
import { createTesseractProvider } from '../../gateway/src/providers/tesseract/create-tesseract-provider.js';
import { probeNativeTesseract } from '../../gateway/src/providers/tesseract/native-engine.js';
import { tsvToOcrBlocks } from '../../gateway/src/providers/tesseract/native-engine.js';
import type { OcrWord } from '../../gateway/src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../gateway/src/providers/contracts/provider-instance.js';
import { boxIou, type DrawnImage, type DrawnWord } from '../../gateway/test/support/draw-text.js';
import { a4Page } from './a4-page.js';
import { bagOfWordsF1, characterErrorRate, wordErrorRate } from './error-rates.js';
import { measureA4Latency, printA4Latency } from './http-latency.js';
import { benchPages, type BenchPage } from './pages.js';
import { realPages } from './real-pages.js';
import { measureStructuredFields } from './structured-fields.js';
import { measureLanguages } from './language-accuracy.js';
import { measureTables } from './table-accuracy.js';

const exec = promisify(execFile);
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const only = option('--only')?.split(',');
const dumpDir = option('--dump');

interface Reading {
  text: string;
  words: OcrWord[];
  seconds: number;
}

type Reader = (page: DrawnImage, name: string) => Promise<Reading>;

/** The gateway's default: one worker per core, at most 4 (a large page uses two when two are free). */
const WORKERS = Math.min(4, availableParallelism());

function gatewayEngine(engine: 'native' | 'wasm', workers = WORKERS): ProviderInstance {
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  return createTesseractProvider({
    id: `bench-${engine}`,
    options: { type: 'tesseract', engine, workers },
    dataDir: tmpdir(),
    logger,
  });
}

function gatewayReader(provider: ProviderInstance): Reader {
  return async (page) => {
    const start = performance.now();
    const result = await provider.capabilities.ocr!.ocr({
      model: 'bench',
      document: page.image,
      mimeType: page.mimeType,
      signal: new AbortController().signal,
    });
    const seconds = (performance.now() - start) / 1000;
    const words = result.pages.flatMap((p) => p.blocks.flatMap((b) => b.lines.flatMap((l) => l.words)));
    return { text: result.pages.map((p) => p.text).join('\n'), words, seconds };
  };
}

/**
 * The `tesseract` command as a user runs it (its defaults: automatic page segmentation), TSV for the boxes.
 * `oneThread`: with OMP_THREAD_LIMIT=1, its fastest setting on this 2-core machine (its default OpenMP
 * threads spin against each other and against a second page).
 */
function commandReader(dir: string, oneThread = true): Reader {
  const env = oneThread ? { ...process.env, OMP_THREAD_LIMIT: '1' } : process.env;
  return async (page, name) => {
    const file = path.join(dir, `${name}.${page.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`);
    await writeFile(file, page.image);
    const start = performance.now();
    const { stdout } = await exec('tesseract', [file, 'stdout', 'tsv'], { env, maxBuffer: 64 << 20 });
    const seconds = (performance.now() - start) / 1000;
    const blocks = tsvToOcrBlocks(stdout);
    return { text: blocksText(blocks), words: blocks.flatMap((b) => b.lines.flatMap((l) => l.words)), seconds };
  };
}

const bare = (text: string): string => text.replace(/[^\p{L}\p{N}@$-]/gu, '').toLowerCase();

/** Mean IoU of each drawn word with the recognised word of the same text that overlaps it most, over the words found. */
function meanBoxIou(truth: DrawnWord[], words: OcrWord[]): number | undefined {
  const ious = truth
    .map((t) =>
      Math.max(
        0,
        ...words.filter((w) => bare(w.text) === bare(t.text) && bare(t.text) !== '').map((w) => boxIou(t.bbox, w.bbox)),
      ),
    )
    .filter((iou) => iou > 0);
  return ious.length ? ious.reduce((a, b) => a + b, 0) / ious.length : undefined;
}

interface Scores {
  cer: number;
  wer: number;
  f1: number;
  iou: number | undefined;
  seconds: number;
}

function score(page: DrawnImage, reading: Reading): Scores {
  return {
    cer: characterErrorRate(page.text, reading.text),
    wer: wordErrorRate(page.text, reading.text),
    f1: bagOfWordsF1(page.text, reading.text),
    iou: page.words.length ? meanBoxIou(page.words, reading.words) : undefined,
    seconds: reading.seconds,
  };
}

const pct = (n: number | undefined): string => (n === undefined ? '-' : `${(n * 100).toFixed(1)}%`);
const pad = (value: string, width: number): string =>
  value.length >= width ? value : value + ' '.repeat(width - value.length);
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const meanDefined = (values: (number | undefined)[]): number | undefined => {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length ? mean(defined) : undefined;
};

async function accuracy(dir: string, engines: [string, Reader][]): Promise<void> {
  const pages = [...(await benchPages(quick)), ...(await realPages())].filter(
    (p) => !only || only.includes(p.category) || only.includes(p.name),
  );
  if (dumpDir) await mkdir(dumpDir, { recursive: true });
  const names = engines.map(([name]) => name);
  console.log(
    `\nAccuracy on ${pages.length} pages, one page at a time, engines interleaved page by page (lower CER/WER is better).`,
  );
  console.log(`Engines: ${names.join(' | ')}\n`);
  const results: { page: BenchPage; scores: Scores[] }[] = [];
  for (const page of pages) {
    const scores: Scores[] = [];
    for (const [engine, reader] of engines) {
      const reading = await reader(page.image, page.name);
      scores.push(score(page.image, reading));
      if (dumpDir) await writeFile(path.join(dumpDir, `${page.name}.${engine}.txt`), reading.text);
    }
    if (dumpDir) await writeFile(path.join(dumpDir, `${page.name}.truth.txt`), page.image.text);
    results.push({ page, scores });
    if (args.includes('--pages')) {
      console.log(
        `${pad(`${page.category}/${page.name}`, 44)} CER ${scores.map((s) => pad(pct(s.cer), 7)).join(' ')}  F1 ${scores.map((s) => s.f1.toFixed(3)).join(' ')}`,
      );
    }
  }
  // Two at a time: each category's pages in pairs, every engine timed on the same pair in turn.
  const paired = new Map<string, number[]>();
  if (!args.includes('--no-pairs')) {
    for (const category of [...new Set(results.map((r) => r.page.category))]) {
      const group = results.filter((r) => r.page.category === category).map((r) => r.page);
      const seconds = engines.map(() => 0);
      for (let at = 0; at < group.length; at += 2) {
        const pair = group.slice(at, at + 2);
        for (const [e, [, reader]] of engines.entries()) {
          const start = performance.now();
          await Promise.all(pair.map((p) => reader(p.image, `${p.name}-pair`)));
          seconds[e] += (performance.now() - start) / 1000;
        }
      }
      paired.set(category, seconds);
    }
  }
  const header = (label: string): string => `${pad(label, 11)}${names.map((n) => pad(n, 8)).join('')}`;
  console.log(
    `${pad('category', 16)} ${pad('n', 3)} ${header('CER')} ${header('WER')} ${header('BoW F1')} ${header('box IoU')} ${header('pages/s')} ${header('2 at once')}`,
  );
  const row = (label: string, group: typeof results): void => {
    const cells = (pick: (s: Scores) => number | undefined, format: (v: number | undefined) => string): string =>
      pad('', 11) + engines.map((_, e) => pad(format(meanDefined(group.map((r) => pick(r.scores[e])))), 8)).join('');
    const rate =
      pad('', 11) +
      engines
        .map((_, e) => pad((group.length / group.reduce((sum, r) => sum + r.scores[e].seconds, 0)).toFixed(2), 8))
        .join('');
    const f = (v: number | undefined): string => (v === undefined ? '-' : v.toFixed(3));
    const pairSeconds = [...new Set(group.map((r) => r.page.category))].map((c) => paired.get(c));
    const twoAtOnce =
      pad('', 11) +
      engines
        .map((_, e) =>
          pairSeconds.every((p) => p)
            ? (group.length / pairSeconds.reduce((sum, p) => sum + p![e], 0)).toFixed(2)
            : '-',
        )
        .map((v) => pad(v, 8))
        .join('');
    console.log(
      `${pad(label, 16)} ${pad(String(group.length), 3)} ${cells((s) => s.cer, pct)} ${cells((s) => s.wer, pct)} ${cells((s) => s.f1, f)} ${cells((s) => s.iou, f)} ${rate} ${twoAtOnce}`,
    );
  };
  const categories = [...new Set(results.map((r) => r.page.category))];
  for (const category of categories)
    row(
      category,
      results.filter((r) => r.page.category === category),
    );
  row('ALL', results);
  row(
    'ALL readable',
    results.filter((r) => r.page.category !== 'unreadable'),
  );
  const unreadable = results.filter((r) => r.page.category === 'unreadable');
  if (unreadable.length) {
    console.log('\nUnreadable pages, characters returned (truth length in brackets):');
    for (const r of unreadable)
      console.log(
        `  ${pad(r.page.name, 20)} [${r.page.image.text.length}] ${r.scores.map((s, e) => `${names[e]} ${Math.round(s.cer * Math.max(1, r.page.image.text.length))} edits`).join(', ')}`,
      );
  }
}

async function throughput(dir: string, native: boolean): Promise<void> {
  const pages = await Promise.all(Array.from({ length: quick ? 4 : 8 }, (_, i) => a4Page(i * 100)));
  console.log(
    `\nThroughput: ${pages.length} A4 pages at 200 DPI (1654×2339), warm, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} (shared machine).`,
  );
  console.log(
    `Each gateway engine (${WORKERS} workers) is timed in turn with the command (one thread, and its default threads), batch by batch, so all see the same load.\n`,
  );
  const lanes: [string, () => Reader][] = [];
  const commands: [string, Reader][] = [
    ['one thread', commandReader(dir)],
    ['default threads', commandReader(dir, false)],
  ];
  if (native) lanes.push(['gateway native', () => gatewayReader(keep(gatewayEngine('native')))]);
  if (!args.includes('--no-wasm')) lanes.push(['gateway wasm', () => gatewayReader(keep(gatewayEngine('wasm')))]);
  const rows: string[] = [];
  for (const [label, makeReader] of lanes) {
    for (const concurrency of [1, 2]) {
      const reader = makeReader();
      await reader(pages[0], 'warm');
      let ours = 0;
      const theirs = commands.map(() => 0);
      const timed = async (read: Reader, batch: DrawnImage[], at: number): Promise<number> => {
        const start = performance.now();
        await Promise.all(batch.map((p, i) => read(p, `a4-${at + i}`)));
        return (performance.now() - start) / 1000;
      };
      for (let at = 0; at < pages.length; at += concurrency) {
        const batch = pages.slice(at, at + concurrency);
        ours += await timed(reader, batch, at);
        if (native) for (const [c, [, command]] of commands.entries()) theirs[c] += await timed(command, batch, at);
      }
      const fastest = Math.min(...theirs);
      const compared = native
        ? ` (command ${commands.map(([name], c) => `${name} ${(pages.length / theirs[c]).toFixed(2)}`).join(', ')} pages/s; ratio to its fastest ${(fastest / ours).toFixed(2)}x)`
        : '';
      rows.push(
        `${pad(`${label}, ${concurrency} at a time`, 34)} ${(pages.length / ours).toFixed(2)} pages/s, ${(ours / pages.length).toFixed(2)} s/page${compared}`,
      );
    }
  }
  for (const row of rows) console.log(row);
}

const opened: ProviderInstance[] = [];
function keep(provider: ProviderInstance): ProviderInstance {
  opened.push(provider);
  return provider;
}

console.log(
  `OCR benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus()[0]?.model ?? 'unknown CPU'}, ` +
    `${availableParallelism()} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()[0].toFixed(1)}.`,
);
const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-ocr-bench-'));
try {
  const native = (await probeNativeTesseract('tesseract')) !== undefined;
  if (!native)
    console.log(
      'No `tesseract` command on this machine (apt-get install tesseract-ocr): measuring tesseract.js alone.',
    );
  const languagesOnly = args.includes('--languages-only') || args.includes('--tables-only');
  if (
    native &&
    !args.includes('--throughput-only') &&
    !args.includes('--no-tables') &&
    !args.includes('--languages-only')
  )
    await measureTables(keep(gatewayEngine('native')), dir, { only: option('--tables')?.split(',') });
  if (
    native &&
    !args.includes('--throughput-only') &&
    !args.includes('--no-languages') &&
    !args.includes('--tables-only')
  )
    await measureLanguages(keep(gatewayEngine('native')), dir, {
      quick,
      perPage: args.includes('--pages'),
      only: option('--languages')?.split(','),
    });
  if (!args.includes('--throughput-only') && !languagesOnly) {
    const engines: [string, Reader][] = [];
    if (native) engines.push(['native', gatewayReader(keep(gatewayEngine('native')))], ['command', commandReader(dir)]);
    if (!args.includes('--no-wasm')) engines.push(['wasm', gatewayReader(keep(gatewayEngine('wasm')))]);
    await accuracy(dir, engines);
    if (!args.includes('--no-structured'))
      await measureStructuredFields(keep(gatewayEngine(native ? 'native' : 'wasm')), {
        perPage: args.includes('--pages'),
      });
  }
  if (!args.includes('--accuracy-only') && !languagesOnly) await throughput(dir, native);
  if (native && !args.includes('--accuracy-only') && !args.includes('--no-http') && !languagesOnly)
    printA4Latency(await measureA4Latency(quick ? 6 : 20));
} finally {
  await Promise.all(opened.map((p) => p.close()));
  await rm(dir, { recursive: true, force: true });
}
