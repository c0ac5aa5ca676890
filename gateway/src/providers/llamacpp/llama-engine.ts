import type { Llama, LlamaLogLevel } from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import type { NativeEngines } from '../_shared/native-engines.js';
import type { ProviderLogger } from '../contracts/provider-instance.js';

/**
 * The native binding is process-wide, and on Linux node-llama-cpp checks a prebuilt binary in a
 * child process on every getLlama() (about 3 s here). So the engine is loaded once per GPU setting
 * for all the provider instances that share `NativeEngines` (a gateway's, or a process's); each
 * instance still owns and disposes its models.
 */
const ENGINE_LOGGERS = 'llama.cpp:loggers';

/** Who hears llama.cpp's own warnings and errors (the engines' log goes to every subscribed logger). */
const loggersOf = (engines: NativeEngines): Set<ProviderLogger> =>
  engines.get(ENGINE_LOGGERS, () => new Set<ProviderLogger>());

function logTo(loggers: ReadonlySet<ProviderLogger>): (level: LlamaLogLevel, message: string) => void {
  return (level, message) => {
    const text = `llama.cpp: ${message.trim()}`;
    const severity: string = level;
    for (const logger of loggers) {
      if (severity === 'error' || severity === 'fatal') logger.error(text);
      else if (severity === 'warn') logger.warn(text);
    }
  };
}

/**
 * Prebuilt binaries only: never a download or a source build. The library is imported here, on
 * first use, because importing it costs over a second of gateway start-up.
 */
async function loadEngine(gpu: boolean, loggers: ReadonlySet<ProviderLogger>): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  return getLlama({
    gpu: gpu ? 'auto' : false,
    build: 'never',
    usePrebuiltBinaries: true,
    skipDownload: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.warn,
    logger: logTo(loggers),
  });
}

/** The shared engine; a failed load is forgotten so a later call tries again. */
export function getLlamaEngine(engines: NativeEngines, gpu: boolean): Promise<Llama> {
  const key = `llama.cpp:${gpu ? 'gpu' : 'cpu'}`;
  return engines.get(key, () =>
    loadEngine(gpu, loggersOf(engines)).catch((error: unknown) => {
      engines.forget(key);
      const reason = error instanceof Error ? error.message : String(error);
      throw new ProviderError('unavailable', `The local llama.cpp engine could not start: ${reason}`, {
        code: 'engine_unavailable',
        cause: error,
      });
    }),
  );
}

/** Routes llama.cpp's own warnings and errors to `logger` until the returned function is called. */
export function subscribeToEngineLogs(engines: NativeEngines, logger: ProviderLogger): () => void {
  const loggers = loggersOf(engines);
  loggers.add(logger);
  return () => loggers.delete(logger);
}
