import { stat } from 'node:fs/promises';
import { ProviderError } from '../_shared/provider-error.js';
import type { EngineStatus, ProviderLogger } from '../contracts/provider-instance.js';
import { MODEL_SAMPLE_RATE, modelFilesOf } from './build-recognizer-config.js';
import type { SpeechModel } from './discover-speech-models.js';
import { loadRecognizer } from './load-recognizer.js';
import type { OfflineRecognizer, OfflineRecognizerResult } from './sherpa-onnx-binding.js';
import type { SherpaOnnxOptions } from './sherpa-onnx-options.js';

type LoadedModel =
  | { state: 'loading'; ready: Promise<OfflineRecognizer> }
  | { state: 'ready'; recognizer: OfflineRecognizer; queue: Promise<unknown> }
  | { state: 'unavailable'; detail: string; signature: string };

/** Size and mtime of a model's files, so a model the user replaced after a failure is tried again. */
async function filesSignature(model: SpeechModel): Promise<string> {
  const parts = await Promise.all(
    [model.files.tokens, ...modelFilesOf(model)].map(async (file) => {
      const info = await stat(file).catch(() => null);
      return info ? `${info.size}:${info.mtimeMs}` : 'missing';
    }),
  );
  return parts.join('|');
}

/** One loaded recognizer per model folder; a model that failed to load stays failed until its files change. */
export class RecognizerCache {
  private readonly loaded = new Map<string, LoadedModel>();

  constructor(
    private readonly options: SherpaOnnxOptions,
    private readonly logger: ProviderLogger,
  ) {}

  async recognizerFor(model: SpeechModel): Promise<OfflineRecognizer> {
    const entry = this.loaded.get(model.name);
    if (entry?.state === 'ready') return entry.recognizer;
    if (entry?.state === 'loading') return entry.ready;
    if (entry?.state === 'unavailable' && entry.signature === (await filesSignature(model))) {
      throw new ProviderError('unavailable', entry.detail, { code: 'speech_model_unavailable' });
    }
    const ready = loadRecognizer(model, this.options);
    this.loaded.set(model.name, { state: 'loading', ready });
    try {
      const recognizer = await ready;
      this.loaded.set(model.name, { state: 'ready', recognizer, queue: Promise.resolve() });
      this.logger.info(`speech model ${model.name} (${model.kind}) loaded`);
      return recognizer;
    } catch (error) {
      const detail = (error as Error).message;
      this.loaded.set(model.name, { state: 'unavailable', detail, signature: await filesSignature(model) });
      this.logger.warn(detail);
      throw new ProviderError('unavailable', detail, { code: 'speech_model_unavailable', cause: error });
    }
  }

  /** One decode at a time per recognizer: the native recognizer is not meant to be shared between threads. */
  decodeSerially(
    model: SpeechModel,
    recognizer: OfflineRecognizer,
    samples: Float32Array,
  ): Promise<OfflineRecognizerResult> {
    const entry = this.loaded.get(model.name);
    const run = async () => {
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples, sampleRate: MODEL_SAMPLE_RATE });
      return recognizer.decodeAsync(stream);
    };
    if (entry?.state !== 'ready') return run();
    const result = entry.queue.then(run, run);
    entry.queue = result.catch(() => undefined);
    return result;
  }

  /** Where the model's recognizer stands: never loaded (cold), loading, ready or unavailable. */
  status(model: SpeechModel): EngineStatus {
    const entry = this.loaded.get(model.name);
    if (!entry) return { state: 'cold' };
    return entry.state === 'unavailable' ? { state: 'unavailable', detail: entry.detail } : { state: entry.state };
  }

  clear(): void {
    this.loaded.clear();
  }
}
