import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** A binary PGM's header: Leptonica reads the format without decompressing anything. */
const pgmHeader = (image: GrayImage): Buffer => Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1');

const abortedError = (): ProviderError =>
  new ProviderError('aborted', 'The OCR request was cancelled.', { code: 'aborted' });
const timeoutError = (timeoutMs: number): ProviderError =>
  new ProviderError('unavailable', `The tesseract command took longer than ${timeoutMs} ms on one page.`, {
    code: 'ocr_timeout',
  });
const startError = (error: Error): ProviderError =>
  new ProviderError('unavailable', `The tesseract command could not be started: ${error.message}`, {
    code: 'ocr_engine_unavailable',
    cause: error,
  });
const exitError = (code: number | null, stderr: string): ProviderError =>
  new ProviderError('unavailable', `The tesseract command failed (exit ${code}): ${stderr.trim().slice(0, 300)}`, {
    code: 'ocr_engine_failed',
  });

/** Starts the command with one OpenMP thread (the pool runs one process per core), its stderr's tail kept for errors. */
function spawnTesseract(
  command: string,
  args: string[],
): { child: ChildProcessWithoutNullStreams; stderr: () => string } {
  const child = spawn(command, args, {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  // A process that dies early closes its stdin; the exit code reports why.
  child.stdin.on('error', () => undefined);
  return { child, stderr: () => stderr };
}

/**
 * Runs the machine's `tesseract` command on one page (piped in as PGM, no shell, no temp file) and
 * returns what it writes to stdout.
 */
export function runNativeTesseract(image: GrayImage, outputs: string[], options: NativeRunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(abortedError());
      return;
    }
    const { child, stderr } = spawnTesseract(options.command, ['stdin', 'stdout', ...options.args, ...outputs]);
    const stdout: Buffer[] = [];
    let failure: ProviderError | undefined;
    const stop = (error: ProviderError): void => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(timeoutError(options.timeoutMs)), options.timeoutMs);
    const onAbort = (): void => stop(abortedError());
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.on('error', (error) => stop(startError(error)));
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else if (code !== 0) reject(exitError(code, stderr()));
      else resolve(Buffer.concat(stdout).toString('utf8'));
    });
    child.stdin.end(Buffer.concat([pgmHeader(image), image.data]));
  });
}

/** Pages one reading process reads before it is replaced, so what Tesseract keeps between pages stays bounded. */
const PAGES_PER_PROCESS = 200;
/** A reading process left idle this long ends (each holds its model, about 45 MB for English). */
const IDLE_MS = 60_000;

/**
 * A `tesseract` process that reads page after page in TSV (`stream_filelist`: the names of image files,
 * one a line, on its stdin), so its model loads once: starting the command and loading the model cost
 * about 70 ms of CPU, as much as reading a small page. Each page is written to a PGM file and followed by
 * a blank 1×1 sentinel page; the TSV's page row of the sentinel says the page before it is complete.
 * One page at a time; a page that times out or is cancelled kills the process (the next page starts another).
 */
class ReadingProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stderr: () => string;
  private readonly file: string;
  private output = '';
  /** TSV page rows seen so far (pages and sentinels, 1-based as Tesseract counts them). */
  private pages = 0;
  private reading:
    { sentinel: number; resolve: (tsv: string) => void; reject: (error: ProviderError) => void } | undefined;
  private failure: ProviderError | undefined;
  private idle: NodeJS.Timeout | undefined;
  alive = true;

  constructor(
    command: string,
    args: string[],
    private readonly folder: ScratchFolder,
  ) {
    this.file = folder.file();
    ({ child: this.child, stderr: this.stderr } = spawnTesseract(command, [
      'stdin',
      'stdout',
      ...args,
      '-c',
      'stream_filelist=true',
      'tsv',
    ]));
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onOutput(chunk));
    this.child.on('error', (error) => this.kill(startError(error)));
    this.child.on('close', (code) => {
      this.alive = false;
      this.reading?.reject(this.failure ?? exitError(code, this.stderr()));
      this.reading = undefined;
    });
  }

  /** Whether the process can take another page. */
  get usable(): boolean {
    return this.alive && this.pages < 2 * PAGES_PER_PROCESS;
  }

  async read(image: GrayImage, signal: AbortSignal, timeoutMs: number): Promise<string> {
    clearTimeout(this.idle);
    if (signal.aborted) throw abortedError();
    try {
      const handle = await open(this.file, 'w');
      try {
        await handle.writev([pgmHeader(image), image.data]);
      } finally {
        await handle.close();
      }
      // Cancelled while the page was written: the process has not seen it and reads the next page.
      if (signal.aborted) throw abortedError();
      if (!this.alive) throw this.failure ?? exitError(this.child.exitCode, this.stderr());
      return await this.readFile(signal, timeoutMs);
    } finally {
      // The page (a user's document) does not stay on disk once read.
      await rm(this.file, { force: true });
      if (this.alive) this.idle = setTimeout(() => this.end(), IDLE_MS).unref();
    }
  }

  /** Hands the process the page's file and its sentinel, and waits for the page's TSV. */
  private async readFile(signal: AbortSignal, timeoutMs: number): Promise<string> {
    const tsv = new Promise<string>((resolve, reject) => {
      this.reading = { sentinel: this.pages + 2, resolve, reject };
    });
    const timer = setTimeout(() => this.kill(timeoutError(timeoutMs)), timeoutMs);
    const onAbort = (): void => this.kill(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    this.child.stdin.write(`${this.file}\n${this.folder.sentinel}\n`);
    try {
      return await tsv;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the process once it has read what it was given (the end of its list of pages). */
  end(): void {
    this.alive = false;
    this.child.stdin.end();
  }

  kill(error?: ProviderError): void {
    clearTimeout(this.idle);
    this.failure ??= error;
    this.alive = false;
    this.child.kill('SIGKILL');
  }

  private onOutput(chunk: string): void {
    this.output += chunk;
    const reading = this.reading;
    if (!reading) return;
    const row = `\n1\t${reading.sentinel}\t`;
    const at = this.output.indexOf(row);
    const end = at < 0 ? -1 : this.output.indexOf('\n', at + row.length);
    if (end < 0) return;
    const tsv = this.output.slice(0, at + 1);
    this.output = this.output.slice(end);
    this.pages = reading.sentinel;
    this.reading = undefined;
    reading.resolve(tsv);
  }
}

/** The files reading processes read their pages from, in a temporary folder made on first use. */
class ScratchFolder {
  private dir: string | undefined;
  private count = 0;

  private path(): string {
    if (this.dir) return this.dir;
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-tesseract-'));
    // The sentinel page: one white pixel.
    writeFileSync(join(dir, 'sentinel.pgm'), Buffer.from('P5\n1 1\n255\n\xff', 'latin1'));
    this.dir = dir;
    return dir;
  }

  get sentinel(): string {
    return join(this.path(), 'sentinel.pgm');
  }

  file(): string {
    return join(this.path(), `page-${this.count++}.pgm`);
  }

  remove(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

/** A worker's reading processes, by their arguments: at most two (the page reading, and one other layout or language). */
class NativeWorker {
  private readonly processes = new Map<string, ReadingProcess>();

  constructor(
    private readonly command: string,
    private readonly folder: ScratchFolder,
  ) {}

  read(image: GrayImage, args: string[], signal: AbortSignal, timeoutMs: number): Promise<string> {
    const key = args.join(' ');
    let reader = this.processes.get(key);
    this.processes.delete(key);
    if (!reader?.usable) {
      reader?.kill();
      reader = new ReadingProcess(this.command, args, this.folder);
    }
    this.processes.set(key, reader);
    for (const [other, process] of this.processes) {
      if (this.processes.size <= 2) break;
      process.kill();
      this.processes.delete(other);
    }
    return reader.read(image, signal, timeoutMs);
  }

  stop(): void {
    for (const process of this.processes.values()) process.kill();
    this.processes.clear();
  }
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

/**
 * What the machine's `tesseract` command says of itself, each of `--version` and `--list-langs` asked
 * once: choosing the engine, warming it and finding its models asked six times in turn, a process
 * start each, all before the gateway was ready.
 */
export class NativeTesseractCommand {
  private version: Promise<string> | undefined;
  private listing: Promise<string> | undefined;

  constructor(readonly command: string) {}

  /** Its version line when it is a Tesseract 4 or later with the English model, else undefined. */
  async usable(): Promise<string | undefined> {
    try {
      const match = /tesseract\s+v?(\d+)\.[\w.-]*/i.exec(await (this.version ??= this.run('--version')));
      if (!match || Number(match[1]) < 4) return undefined;
      return (await this.languages()).includes('eng') ? match[0] : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The language models it finds in its tessdata folder (Debian's tesseract-ocr-<lang> packages
   * install there), by Tesseract's codes; `osd` (script detection) is listed too, script models
   * (script/Latin, ...) are not.
   */
  async languages(): Promise<string[]> {
    return (await this.list())
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[a-z]{3}(_[a-z]+)*$/.test(line));
  }

  /** The folder it reads its models from (`--list-langs` names it), or undefined when it cannot be run. */
  async tessdataDir(): Promise<string | undefined> {
    const listed = await this.list().catch(() => undefined);
    return listed && /languages in "([^"]+)"/.exec(listed)?.[1];
  }

  private list(): Promise<string> {
    return (this.listing ??= this.run('--list-langs'));
  }

  private async run(flag: string): Promise<string> {
    const { stdout, stderr } = await exec(this.command, [flag], { timeout: 10_000 });
    return `${stdout}\n${stderr}`;
  }
}

/**
 * Whether `command` is a Tesseract 4 or later with the English model: resolves to its version line, or
 * to undefined when it is absent or unusable.
 */
export function probeNativeTesseract(command: string): Promise<string | undefined> {
  return new NativeTesseractCommand(command).usable();
}

/** The language models `command` finds (NativeTesseractCommand.languages). */
export function listNativeLanguages(command: string): Promise<string[]> {
  return new NativeTesseractCommand(command).languages();
}

export interface NativeEngineOptions {
  workers: number;
  /** The command's name or path. */
  command: string;
  timeoutMs: number;
  /** The models of every source as one folder (`--tessdata-dir`); without it, the command's own folder. */
  tessdata?: TessdataFolder;
  /** What the command says of itself, when already asked (createEngine's choice of engine). */
  probe?: NativeTesseractCommand;
}

/** The script Tesseract's `--psm 0` output names, or undefined when it names none. */
export function parseOsd(output: string): ScriptGuess | undefined {
  const script = /^Script:\s*(\S+)/m.exec(output)?.[1];
  const confidence = Number(/^Script confidence:\s*([\d.]+)/m.exec(output)?.[1] ?? 0);
  return script ? { script, confidence } : undefined;
}

/**
 * The machine's `tesseract` command: each worker reads its pages with its own reading processes (see
 * ReadingProcess), at most `workers` pages at a time; script detection starts the command for each page.
 */
export function createNativeEngine(options: NativeEngineOptions): OcrEngine {
  let probed: Promise<string[]> | undefined;
  let known: string[] | undefined;
  const probe = options.probe ?? new NativeTesseractCommand(options.command);
  const languages = (): Promise<string[]> => {
    probed ??= probe.usable().then(async (version) => {
      if (!version)
        throw new Error(`no usable \`${options.command}\` command with the English model (install tesseract-ocr)`);
      known = await probe.languages();
      return known;
    });
    if (!options.tessdata) return probed;
    const folder = options.tessdata;
    return probed.then(async () => (known = await folder.languages()));
  };
  const folderArgs = options.tessdata ? ['--tessdata-dir', options.tessdata.path] : [];
  const scratch = new ScratchFolder();
  const pool = new WorkerPool<NativeWorker>(options.workers, {
    start: async () => {
      await languages();
      return new NativeWorker(options.command, scratch);
    },
    stop: async (worker) => worker.stop(),
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
    recognize: async (image, signal, layout = 'auto', models = ['eng']) => {
      const args = [...folderArgs, '-l', models.join('+'), '--psm', PSM_FOR_LAYOUT[layout]];
      return tsvToOcrBlocks(await pool.run(signal, (worker) => worker.read(image, args, signal, options.timeoutMs)));
    },
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
    close: async () => {
      await pool.close();
      scratch.remove();
    },
  };
}
