import { ProviderError } from '../_shared/provider-error.js';
import type { EngineStatus, ProviderFactory } from '../contracts/provider-instance.js';
import type { TranscriptionProvider } from '../contracts/transcription.js';
import { RecognizerCache } from './recognizer-cache.js';
import { readSherpaOnnxOptions } from './sherpa-onnx-options.js';
import { SpeechModelCatalog } from './speech-model-catalog.js';
import { transcribeWav } from './transcribe-wav.js';

const SHUT_DOWN = 'the local speech engine is shut down';

/** Local speech to text with sherpa-onnx offline models the user placed under `<dataDir>/models/speech/<name>/`. */
export const createSherpaOnnxProvider: ProviderFactory = (context) => {
  const options = readSherpaOnnxOptions(context);
  const catalog = new SpeechModelCatalog(options, context.logger);
  const recognizers = new RecognizerCache(options, context.logger);
  let closed = false;

  const transcription: TranscriptionProvider = {
    async transcribe(request) {
      if (closed) throw new ProviderError('unavailable', SHUT_DOWN, { code: 'speech_model_unavailable' });
      return transcribeWav(request, catalog, recognizers, options.maxDurationSeconds);
    },
  };

  function modelStatus(name: string): EngineStatus {
    const models = catalog.models;
    const model = models && catalog.select(models, name);
    if (!model)
      return models && models.length === 0
        ? { state: 'unavailable', detail: catalog.noModelDetail }
        : { state: 'cold' };
    return recognizers.status(model);
  }

  // Look for models right away so status() can say "no model" before the first request.
  void catalog.discover();

  return {
    id: context.id,
    type: context.options.type,
    capabilities: { transcription },
    async warm() {
      const model = catalog.select(await catalog.discover(), '');
      if (model) await recognizers.recognizerFor(model).catch(() => undefined);
    },
    status(): EngineStatus {
      if (closed) return { state: 'unavailable', detail: SHUT_DOWN };
      const models = catalog.models;
      if (!models) return { state: 'cold' };
      if (models.length === 0) {
        // Look again in the background: a model downloaded or unpacked since shows on the next status, no request needed.
        void catalog.discover();
        return { state: 'unavailable', detail: catalog.noModelDetail };
      }
      const states = models.map((model) => modelStatus(model.name));
      for (const wanted of ['ready', 'loading', 'cold'] as const) {
        if (states.some((s) => s.state === wanted)) return { state: wanted };
      }
      return { state: 'unavailable', detail: states.map((s) => s.detail).join('; ') };
    },
    modelStatus,
    async close() {
      closed = true;
      recognizers.clear();
    },
  };
};
