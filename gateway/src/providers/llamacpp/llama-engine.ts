import type { Llama, LlamaLogLevel } from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import type { ProviderLogger } from '../contracts/provider-instance.js';

/**
 * The native binding is process-wide, and on Linux node-llama-cpp checks a prebuilt binary in a
 * child process on every getLlama() (about 3 s here). So the engine is loaded once per process and
 * per GPU setting, and shared by provider instances; each instance still owns and disposes its
 * models. This cache is the one deliberate exception to "no module-level state".
 */
const engines = new Map<boolean, Promise<Llama>>();
const loggers = new Set<ProviderLogger>();

function log(level: LlamaLogLevel, message: string): void {
  const text = `llama.cpp: ${message.trim()}`;
  const severity: string = level;
  for (const logger of loggers) {
    if (severity === 'error' || severity === 'fatal') logger.error(text);
    else if (severity === 'warn') logger.warn(text);
  }
}

/**
 * Prebuilt binaries only: never a download or a source build. The library is imported here, on
 * first use, because importing it costs over a second of gateway start-up.
 */
async function loadEngine(gpu: boolean): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  return getLlama({
    gpu: gpu ? 'auto' : false,
    build: 'never',
    usePrebuiltBinaries: true,
    skipDownload: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.warn,
    logger: log,
  });
}

/** The shared engine; a failed load is forgotten so a later call tries again. */
export function getLlamaEngine(gpu: boolean): Promise<Llama> {
  let engine = engines.get(gpu);
  if (!engine) {
    engine = loadEngine(gpu).catch((error: unknown) => {
      engines.delete(gpu);
      const reason = error instanceof Error ? error.message : String(error);
      throw new ProviderError('unavailable', `The local llama.cpp engine could not start: ${reason}`, {
        code: 'engine_unavailable',
        cause: error,
      });
    });
    engines.set(gpu, engine);
  }
  return engine;
}

/** Routes llama.cpp's own warnings and errors to `logger` until the returned function is called. */
export function subscribeToEngineLogs(logger: ProviderLogger): () => void {
  loggers.add(logger);
  return () => loggers.delete(logger);
}
