import { spawn } from 'node:child_process';
import type { GrayImage } from '../../media/image/decode-image.js';
import { ProviderError } from '../_shared/provider-error.js';

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
