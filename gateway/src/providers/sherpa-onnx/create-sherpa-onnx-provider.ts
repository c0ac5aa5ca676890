import { stat } from 'node:fs/promises';
import { ProviderError } from '../_shared/provider-error.js';
import type { EngineStatus, ProviderFactory } from '../contracts/provider-instance.js';
import type { TranscriptionProvider, TranscriptionRequest, TranscriptionResult } from '../contracts/transcription.js';
import { MODEL_SAMPLE_RATE, modelFilesOf } from './build-recognizer-config.js';
import { buildSegments } from './build-segments.js';
import type { SpeechModel } from './discover-speech-models.js';
import { discoverSpeechModels } from './discover-speech-models.js';
import { loadRecognizer } from './load-recognizer.js';
import { readWav } from './read-wav.js';
import { resampleLinear } from './resample-linear.js';
import type { OfflineRecognizer } from './sherpa-onnx-binding.js';
import { readSherpaOnnxOptions } from './sherpa-onnx-options.js';

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

function languageOf(lang: string | undefined): string | undefined {
  const code = lang?.replace(/^<\|/, '').replace(/\|>$/, '').trim();
  return code ? code : undefined;
}

/** Local speech to text with sherpa-onnx offline models the user placed under `<dataDir>/models/speech/<name>/`. */
export const createSherpaOnnxProvider: ProviderFactory = (context) => {
  const options = readSherpaOnnxOptions(context);
  const noModelHint =
    `no speech model found in ${options.modelDir}. Download a sherpa-onnx offline model ` +
    '(for example sherpa-onnx-whisper-tiny.en from https://github.com/k2-fsa/sherpa-onnx/releases/tag/asr-models), ' +
    `unpack it into ${options.modelDir}/<name>/ (an encoder/decoder/tokens Whisper export, a transducer, ` +
    'or a paraformer/SenseVoice model.onnx with tokens.txt) and send the request again';

  let models: SpeechModel[] | undefined;
  let discovery: Promise<SpeechModel[]> | undefined;
  let discoveryError: string | undefined;
  const loaded = new Map<string, LoadedModel>();
  let closed = false;

  function discover(): Promise<SpeechModel[]> {
    discovery ??= discoverSpeechModels(options.modelDir).then(
      (found) => {
        models = found;
        discoveryError = undefined;
        return found;
      },
      (error: Error) => {
        discoveryError = `cannot read the speech model folder ${options.modelDir}: ${error.message}`;
        models = [];
        return [];
      },
    ).finally(() => {
      discovery = undefined;
    });
    return discovery;
  }

  /**
   * The folder named `name` (a route's `upstream_model`); a route that names none (its model id
   * arrives here) gets the `default_model` folder, else the first one.
   */
  function selectModel(list: SpeechModel[], name: string): SpeechModel | undefined {
    return list.find((model) => model.name === name) ?? list.find((model) => model.name === options.defaultModel) ?? list[0];
  }

  const reportedFallbacks = new Set<string>();

  async function findModel(name: string): Promise<SpeechModel> {
    // The user may have added the named model since the last look.
    const exact = models?.find((model) => model.name === name);
    const model = exact ?? selectModel(await discover(), name);
    if (!model) {
      throw new ProviderError('unavailable', discoveryError ?? noModelHint, { code: 'speech_model_unavailable' });
    }
    if (model.name !== name && !reportedFallbacks.has(name)) {
      reportedFallbacks.add(name);
      context.logger.info(`no speech model folder named ${name}; using ${model.name} (set upstream_model to a folder name to choose)`);
    }
    return model;
  }

  async function recognizerFor(model: SpeechModel): Promise<OfflineRecognizer> {
    const entry = loaded.get(model.name);
    if (entry?.state === 'ready') return entry.recognizer;
    if (entry?.state === 'loading') return entry.ready;
    if (entry?.state === 'unavailable' && entry.signature === (await filesSignature(model))) {
      throw new ProviderError('unavailable', entry.detail, { code: 'speech_model_unavailable' });
    }
    const ready = loadRecognizer(model, options);
    loaded.set(model.name, { state: 'loading', ready });
    try {
      const recognizer = await ready;
      loaded.set(model.name, { state: 'ready', recognizer, queue: Promise.resolve() });
      context.logger.info(`speech model ${model.name} (${model.kind}) loaded`);
      return recognizer;
    } catch (error) {
      const detail = (error as Error).message;
      loaded.set(model.name, { state: 'unavailable', detail, signature: await filesSignature(model) });
      context.logger.warn(detail);
      throw new ProviderError('unavailable', detail, { code: 'speech_model_unavailable', cause: error });
    }
  }

  /** One decode at a time per recognizer: the native recognizer is not meant to be shared between threads. */
  function decodeSerially(model: SpeechModel, recognizer: OfflineRecognizer, samples: Float32Array) {
    const entry = loaded.get(model.name);
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

  function throwIfAborted(signal: AbortSignal): void {
    if (signal.aborted) throw new ProviderError('aborted', 'the transcription request was cancelled');
  }

  const transcription: TranscriptionProvider = {
    async transcribe(request: TranscriptionRequest): Promise<TranscriptionResult> {
      if (closed) throw new ProviderError('unavailable', 'the local speech engine is shut down', { code: 'speech_model_unavailable' });
      throwIfAborted(request.signal);
      const audio = readWav(request.audio, { maxDurationSeconds: options.maxDurationSeconds });
      if (audio.samples.length === 0) {
        throw new ProviderError('invalid_input', 'the WAV file holds no audio samples', { code: 'invalid_audio', param: 'file' });
      }
      const samples = resampleLinear(audio.samples, audio.sampleRate, MODEL_SAMPLE_RATE);
      const model = await findModel(request.model);
      const recognizer = await recognizerFor(model);
      throwIfAborted(request.signal);
      let result;
      try {
        result = await decodeSerially(model, recognizer, samples);
      } catch (error) {
        throw new ProviderError('upstream', `the local speech engine failed to decode the audio: ${(error as Error).message}`, {
          code: 'speech_engine_failed',
          cause: error,
        });
      }
      throwIfAborted(request.signal);
      return {
        text: result.text.trim(),
        language: languageOf(result.lang) ?? request.language,
        duration: audio.duration,
        segments: buildSegments(result, audio.duration),
      };
    },
  };

  function modelStatus(name: string): EngineStatus {
    const model = models && selectModel(models, name);
    if (!model) return models && models.length === 0 ? { state: 'unavailable', detail: discoveryError ?? noModelHint } : { state: 'cold' };
    const entry = loaded.get(model.name);
    if (!entry) return { state: 'cold' };
    return entry.state === 'unavailable' ? { state: 'unavailable', detail: entry.detail } : { state: entry.state };
  }

  // Look for models right away so status() can say "no model" before the first request.
  void discover();

  return {
    id: context.id,
    type: context.options.type,
    capabilities: { transcription },
    async warm() {
      const model = selectModel(await discover(), '');
      if (model) await recognizerFor(model).catch(() => undefined);
    },
    status(): EngineStatus {
      if (closed) return { state: 'unavailable', detail: 'the local speech engine is shut down' };
      if (!models) return { state: 'cold' };
      if (models.length === 0) return { state: 'unavailable', detail: discoveryError ?? noModelHint };
      const states = models.map((model) => modelStatus(model.name));
      for (const wanted of ['ready', 'loading', 'cold'] as const) {
        if (states.some((s) => s.state === wanted)) return { state: wanted };
      }
      return { state: 'unavailable', detail: states.map((s) => s.detail).join('; ') };
    },
    modelStatus,
    async close() {
      closed = true;
      loaded.clear();
    },
  };
};
