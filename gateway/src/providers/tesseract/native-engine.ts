import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PSM_FOR_LAYOUT, type OcrEngine } from './ocr-engine.js';
import { runNativeTesseract } from './run-native-tesseract.js';
import { tsvToOcrBlocks } from './tsv-to-ocr-blocks.js';
import { WorkerPool } from './worker-pool.js';

const exec = promisify(execFile);

export interface NativeEngineOptions {
  workers: number;
  /** The command's name or path. */
  command: string;
  timeoutMs: number;
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
    const langs = await exec(command, ['--list-langs'], { timeout: 10_000 });
    return /^eng$/m.test(`${langs.stdout}\n${langs.stderr}`) ? match[0] : undefined;
  } catch {
    return undefined;
  }
}

/** The machine's `tesseract` command: one process per page, at most `workers` at a time. */
export function createNativeEngine(options: NativeEngineOptions): OcrEngine {
  let probed: Promise<void> | undefined;
  let slot = 0;
  const pool = new WorkerPool<number>(options.workers, {
    start: async () => {
      probed ??= probeNativeTesseract(options.command).then((version) => {
        if (!version)
          throw new Error(`no usable \`${options.command}\` command with the English model (install tesseract-ocr)`);
      });
      await probed;
      return slot++;
    },
    stop: async () => undefined,
  });
  return {
    kind: 'native',
    workers: options.workers,
    recognize: async (image, signal, layout = 'auto') => {
      const tsv = await pool.run(signal, () =>
        runNativeTesseract(image, ['tsv'], {
          command: options.command,
          timeoutMs: options.timeoutMs,
          signal,
          args: ['-l', 'eng', '--psm', PSM_FOR_LAYOUT[layout]],
        }),
      );
      return tsvToOcrBlocks(tsv);
    },
    warm: () => pool.warm(),
    status: () => pool.status(),
    queues: () => pool.queues(),
    onPageWaiting: (listener) => pool.onJobWaiting(listener),
    close: () => pool.close(),
  };
}
