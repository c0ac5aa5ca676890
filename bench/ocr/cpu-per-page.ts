/**
 * CPU seconds per page: the gateway's native engine (the whole provider call: decoding, script and
 * language choice, every Tesseract process it starts, layout) beside the `tesseract` command at its
 * fastest setting (one thread), page by page. On a shared machine wall-clock pages/s swing with the
 * load; CPU time barely does, and with pages read two at a time on two cores pages/s is about
 * 2 / (CPU seconds per page), so this tells whether the gateway keeps up with the command.
 * Child processes' CPU comes from /proc (cutime + cstime of the children waited for, and the times of those
 * still running: the engine's reading processes serve page after page), so Linux only.
 *   npx tsx bench/ocr/cpu-per-page.ts [--only <category or page>[,...]]
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTesseractProvider } from '../../gateway/src/providers/tesseract/create-tesseract-provider.js';
import { characterErrorRate } from './error-rates.js';
import { benchPages } from './pages.js';
import { realPages } from './real-pages.js';

const exec = promisify(execFile);
const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1]?.split(',') : undefined;
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** utime, stime, cutime and cstime of a /proc/<pid>/stat, in seconds. */
function statTimes(stat: string): number[] {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].map((at) => Number(fields[at]) / TICKS);
}

/** The CPU seconds of the children still running (a reading process that serves page after page), with their own children. */
function liveChildrenSeconds(): number {
  let seconds = 0;
  for (const task of readdirSync('/proc/self/task')) {
    const children = readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim();
    for (const pid of children ? children.split(' ') : []) {
      try {
        seconds += statTimes(readFileSync(`/proc/${pid}/stat`, 'utf8')).reduce((a, b) => a + b, 0);
      } catch {
        // It ended between the two reads: its time is in this process's cutime now.
      }
    }
  }
  return seconds;
}

/** CPU seconds of this process (all its threads) and of its children, ended or still running. */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  const [, , cutime, cstime] = statTimes(readFileSync('/proc/self/stat', 'utf8'));
  return (own.user + own.system) / 1e6 + cutime + cstime + liveChildrenSeconds();
}

async function measure<T>(work: () => Promise<T>): Promise<{ value: T; cpu: number }> {
  const before = cpuSeconds();
  const value = await work();
  return { value, cpu: cpuSeconds() - before };
}

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const provider = createTesseractProvider({
  id: 'bench-cpu',
  options: { type: 'tesseract', engine: 'native', workers: 2 },
  dataDir: tmpdir(),
  logger,
});
const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-ocr-cpu-'));
const rows = new Map<string, { pages: number; gateway: number; command: number; cerG: number; cerC: number }>();
try {
  const pages = [...(await benchPages()), ...(await realPages())].filter(
    (p) => !only || only.includes(p.category) || only.includes(p.name),
  );
  // One page first, uncounted: the engine's first process and the page-language tables warm up.
  if (pages[0])
    await provider.capabilities.ocr!.ocr({
      model: 'bench',
      document: pages[0].image.image,
      mimeType: pages[0].image.mimeType,
      signal: new AbortController().signal,
    });
  console.log(`OCR CPU per page, load average ${loadavg()[0].toFixed(1)} at the start`);
  for (const page of pages) {
    const gateway = await measure(() =>
      provider.capabilities.ocr!.ocr({
        model: 'bench',
        document: page.image.image,
        mimeType: page.image.mimeType,
        signal: new AbortController().signal,
      }),
    );
    const file = path.join(dir, `${page.name}.${page.image.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`);
    await writeFile(file, page.image.image);
    const command = await measure(() =>
      exec('tesseract', [file, 'stdout'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, maxBuffer: 64 << 20 }),
    );
    const row = rows.get(page.category) ?? { pages: 0, gateway: 0, command: 0, cerG: 0, cerC: 0 };
    row.pages++;
    row.gateway += gateway.cpu;
    row.command += command.cpu;
    row.cerG += characterErrorRate(page.image.text, gateway.value.pages.map((p) => p.text).join('\n'));
    row.cerC += characterErrorRate(page.image.text, command.value.stdout);
    rows.set(page.category, row);
  }
  console.log('| category | pages | CPU s/page gateway / command (one thread) | ratio | CER gateway / command |');
  console.log('|---|---|---|---|---|');
  const total = { pages: 0, gateway: 0, command: 0 };
  for (const [category, row] of rows) {
    total.pages += row.pages;
    total.gateway += row.gateway;
    total.command += row.command;
    console.log(
      `| ${category} | ${row.pages} | ${(row.gateway / row.pages).toFixed(2)} / ${(row.command / row.pages).toFixed(2)} | ` +
        `${(row.gateway / row.command).toFixed(2)} | ${((row.cerG / row.pages) * 100).toFixed(1)}% / ${((row.cerC / row.pages) * 100).toFixed(1)}% |`,
    );
  }
  console.log(
    `| **all** | ${total.pages} | ${(total.gateway / total.pages).toFixed(2)} / ${(total.command / total.pages).toFixed(2)} | ` +
      `${(total.gateway / total.command).toFixed(2)} | |`,
  );
  console.log(
    `Two pages at a time on two cores, CPU-bound: about ${((2 * total.pages) / total.gateway).toFixed(2)} pages/s ` +
      `for the gateway, ${((2 * total.pages) / total.command).toFixed(2)} for the command.`,
  );
} finally {
  await provider.close?.();
  await rm(dir, { recursive: true, force: true });
}
