import type { EngineStatus } from '../contracts/provider-instance.js';
import { join } from 'node:path';
import { createNativeEngine, NativeTesseractCommand } from './native-engine.js';
import type { EngineKind, OcrEngine } from './ocr-engine.js';
import type { TesseractOptions } from './tesseract-options.js';
import { createWasmEngine, type PngEncoder } from './wasm-engine.js';
import { TESSDATA_DOWNLOADS, TessdataFolder } from './tessdata-folder.js';

/**
 * The language models of Debian's packages (the command's folder, else TESSDATA_PREFIX), npm's
 * @tesseract.js-data packages and the download manager's folder, as one folder in `dataDir`.
 */
export function tessdataFolderIn(dataDir: string, command: NativeTesseractCommand): TessdataFolder {
  return new TessdataFolder({
    folder: join(dataDir, 'ocr-tessdata'),
    downloads: join(dataDir, 'models', TESSDATA_DOWNLOADS),
    system: async () => (await command.tessdataDir()) ?? process.env.TESSDATA_PREFIX,
  });
}

/**
 * The engine the options ask for: `native` (the machine's `tesseract` command), `wasm` (tesseract.js),
 * or `auto`: native when the command is installed with the English model, else wasm. The choice is
 * made once, when the engine first warms or recognises. `encodePng` encodes pages for tesseract.js;
 * `tessdata`, the models both engines read (without: the command's own, or tesseract.js' English).
 */
export function createEngine(
  options: TesseractOptions,
  encodePng?: PngEncoder,
  tessdata?: TessdataFolder,
  probe = new NativeTesseractCommand(options.nativeCommand),
): OcrEngine {
  const native = (): OcrEngine =>
    createNativeEngine({
      workers: options.workers,
      command: options.nativeCommand,
      timeoutMs: options.pageTimeoutMs,
      tessdata,
      probe,
    });
  const wasm = (): OcrEngine => createWasmEngine(options.workers, encodePng, tessdata);
  if (options.engine === 'native') return native();
  if (options.engine === 'wasm') return wasm();
  let chosen: OcrEngine | undefined;
  let choosing: Promise<OcrEngine> | undefined;
  let closed = false;
  const choose = (): Promise<OcrEngine> => {
    choosing ??= probe.usable().then((version) => {
      chosen = version ? native() : wasm();
      if (closed) void chosen.close();
      return chosen;
    });
    return choosing;
  };
  return {
    get kind(): EngineKind {
      return chosen?.kind ?? 'native';
    },
    workers: options.workers,
    recognize: async (image, signal, layout, languages) => (await choose()).recognize(image, signal, layout, languages),
    detectScript: async (image, signal) => (await choose()).detectScript(image, signal),
    languages: async () => (await choose()).languages(),
    knownLanguages: () => chosen?.knownLanguages(),
    warm: async () => (await choose()).warm(),
    status: (): EngineStatus => chosen?.status() ?? (choosing ? { state: 'loading' } : { state: 'cold' }),
    queues: () => chosen?.queues() ?? [],
    // Speculation only starts on a warm engine (spare workers), so the engine is chosen by then.
    onPageWaiting: (listener) => chosen?.onPageWaiting(listener) ?? (() => undefined),
    close: async () => {
      closed = true;
      await chosen?.close();
    },
  };
}
