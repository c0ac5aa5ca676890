import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { PSM_FOR_LAYOUT, type OcrEngine, type ScriptGuess } from './ocr-engine.js';
import type { GrayImage } from '../../media/image/decode-image.js';
import { ProviderError } from '../_shared/provider-error.js';
import type { BoxCoordinates, OcrBlock, OcrLine, OcrWord } from '../contracts/ocr.js';
import { WorkerPool } from './worker-pool.js';
import { joinWords } from '../../ocr-layout/join-words.js';
import type { TessdataFolder } from './tessdata-folder.js';

export interface NativeRunOptions {
  command: string;
  /** Kills the process after this long. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Extra arguments before the output name, e.g. ['--psm', '3']. */
  args: string[];
}

/** A binary PGM: Leptonica reads it from stdin without decompressing anything. */
function encodePgm(image: GrayImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1');
  return Buffer.concat([header, image.data]);
}

/**
 * Runs the machine's `tesseract` command on one page (piped in as PGM, no shell, no temp file) and
 * returns what it writes to stdout. One OpenMP thread: the pool runs one process per core.
 */
export function runNativeTesseract(image: GrayImage, outputs: string[], options: NativeRunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new ProviderError('aborted', 'The OCR request was cancelled.', { code: 'aborted' }));
      return;
    }
    const child = spawn(options.command, ['stdin', 'stdout', ...options.args, ...outputs], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    let failure: ProviderError | undefined;
    const stop = (error: ProviderError): void => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () =>
        stop(
          new ProviderError(
            'unavailable',
            `The tesseract command took longer than ${options.timeoutMs} ms on one page.`,
            { code: 'ocr_timeout' },
          ),
        ),
      options.timeoutMs,
    );
    const onAbort = (): void =>
      stop(new ProviderError('aborted', 'The OCR request was cancelled.', { code: 'aborted' }));
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    // A process that dies early closes its stdin; the exit code reports why.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) =>
      stop(
        new ProviderError('unavailable', `The tesseract command could not be started: ${error.message}`, {
          code: 'ocr_engine_unavailable',
          cause: error,
        }),
      ),
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else if (code !== 0) {
        reject(
          new ProviderError(
            'unavailable',
            `The tesseract command failed (exit ${code}): ${stderr.trim().slice(0, 300)}`,
            { code: 'ocr_engine_failed' },
          ),
        );
      } else resolve(Buffer.concat(stdout).toString('utf8'));
    });
    child.stdin.end(encodePgm(image));
  });
}

const mean = (values: number[]): number => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/**
 * Converts the `tesseract` command's TSV (level, page, block, paragraph, line, word, left, top, width,
 * height, conf, text) to blocks → lines → words in Tesseract's order, one block per paragraph, boxes
 * in the image's pixels, confidences 0..1 (lines and blocks: the mean of their words).
 */
export function tsvToOcrBlocks(tsv: string): OcrBlock[] {
  const blocks: OcrBlock[] = [];
  let block: OcrBlock | undefined;
  let line: OcrLine | undefined;
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || !/^\d+$/.test(cells[0])) continue;
    const [left, top, width, height] = cells.slice(6, 10).map(Number);
    const bbox: BoxCoordinates = [left, top, left + width, top + height];
    const level = Number(cells[0]);
    if (level === 3) {
      block = { text: '', bbox, confidence: 0, lines: [] };
      blocks.push(block);
    } else if (level === 4 && block) {
      line = { text: '', bbox, confidence: 0, words: [] };
      block.lines.push(line);
    } else if (level === 5 && line) {
      const text = cells.slice(11).join('\t').trim();
      if (text.length === 0) continue;
      const word: OcrWord = { text, bbox, confidence: Math.max(0, Math.min(1, Number(cells[10]) / 100)) };
      line.words.push(word);
    }
  }
  const out: OcrBlock[] = [];
  for (const b of blocks) {
    const lines = b.lines.filter((l) => l.words.length > 0);
    for (const l of lines) {
      l.text = joinWords(l.words.map((w) => w.text));
      l.confidence = mean(l.words.map((w) => w.confidence));
    }
    if (lines.length === 0) continue;
    out.push({
      text: lines.map((l) => l.text).join('\n'),
      bbox: b.bbox,
      confidence: mean(lines.map((l) => l.confidence)),
      lines,
    });
  }
  return out;
}

const exec = promisify(execFile);

export interface NativeEngineOptions {
  workers: number;
  /** The command's name or path. */
  command: string;
  timeoutMs: number;
  /** The models of every source as one folder (`--tessdata-dir`); without it, the command's own folder. */
  tessdata?: TessdataFolder;
}

/**
 * Whether `command` is a Tesseract 4 or later with the English model: resolves to its version line, or
 * to undefined when it is absent or unusable.
 */
export async function probeNativeTesseract(command: string): Promise<string | undefined> {
  try {
    const version = await exec(command, ['--version'], { timeout: 10_000 });
    const match = /tesseract\s+v?(\d+)\.[\w.-]*/i.exec(`${version.stdout}\n${version.stderr}`);
    if (!match || Number(match[1]) < 4) return undefined;
    return (await listNativeLanguages(command)).includes('eng') ? match[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The language models `command` finds in its tessdata folder (Debian's tesseract-ocr-<lang> packages
 * install there), by Tesseract's codes; `osd` (script detection) is listed too, script models
 * (script/Latin, ...) are not.
 */
export async function listNativeLanguages(command: string): Promise<string[]> {
  const listed = await exec(command, ['--list-langs'], { timeout: 10_000 });
  return `${listed.stdout}\n${listed.stderr}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^[a-z]{3}(_[a-z]+)*$/.test(line));
}

/** The folder `command` reads its models from (`--list-langs` names it), or undefined when it cannot be run. */
export async function nativeTessdataDir(command: string): Promise<string | undefined> {
  const listed = await exec(command, ['--list-langs'], { timeout: 10_000 }).catch(() => undefined);
  return listed && /languages in "([^"]+)"/.exec(`${listed.stdout}\n${listed.stderr}`)?.[1];
}

/** The script Tesseract's `--psm 0` output names, or undefined when it names none. */
export function parseOsd(output: string): ScriptGuess | undefined {
  const script = /^Script:\s*(\S+)/m.exec(output)?.[1];
  const confidence = Number(/^Script confidence:\s*([\d.]+)/m.exec(output)?.[1] ?? 0);
  return script ? { script, confidence } : undefined;
}

/** The machine's `tesseract` command: one process per page, at most `workers` at a time. */
export function createNativeEngine(options: NativeEngineOptions): OcrEngine {
  let probed: Promise<string[]> | undefined;
  let known: string[] | undefined;
  const languages = (): Promise<string[]> => {
    probed ??= probeNativeTesseract(options.command).then(async (version) => {
      if (!version)
        throw new Error(`no usable \`${options.command}\` command with the English model (install tesseract-ocr)`);
      known = await listNativeLanguages(options.command);
      return known;
    });
    if (!options.tessdata) return probed;
    const folder = options.tessdata;
    return probed.then(async () => (known = await folder.languages()));
  };
  const folderArgs = options.tessdata ? ['--tessdata-dir', options.tessdata.path] : [];
  let slot = 0;
  const pool = new WorkerPool<number>(options.workers, {
    start: async () => {
      await languages();
      return slot++;
    },
    stop: async () => undefined,
  });
  const run = (image: GrayImage, signal: AbortSignal, outputs: string[], args: string[]): Promise<string> =>
    pool.run(signal, () =>
      runNativeTesseract(image, outputs, {
        command: options.command,
        timeoutMs: options.timeoutMs,
        signal,
        args: [...folderArgs, ...args],
      }),
    );
  return {
    kind: 'native',
    workers: options.workers,
    recognize: async (image, signal, layout = 'auto', models = ['eng']) =>
      tsvToOcrBlocks(await run(image, signal, ['tsv'], ['-l', models.join('+'), '--psm', PSM_FOR_LAYOUT[layout]])),
    detectScript: async (image, signal) => {
      if (!(await languages()).includes('osd')) return undefined;
      // Too few characters to tell: the command fails, and the page has no script to speak of.
      return run(image, signal, [], ['--psm', '0']).then(parseOsd, (error: unknown) => {
        if (signal.aborted) throw error;
        return undefined;
      });
    },
    languages,
    knownLanguages: () => known,
    warm: () => pool.warm(),
    status: () => pool.status(),
    queues: () => pool.queues(),
    onPageWaiting: (listener) => pool.onJobWaiting(listener),
    close: () => pool.close(),
  };
}
