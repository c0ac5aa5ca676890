import type { SpeechModel } from './discover-speech-models.js';
import type { OfflineRecognizerConfig } from './sherpa-onnx-binding.js';

/** The sample rate every sherpa-onnx offline model here expects; audio is resampled to it. */
export const MODEL_SAMPLE_RATE = 16_000;

function required(model: SpeechModel, key: keyof SpeechModel['files']): string {
  const file = model.files[key];
  if (file === undefined) throw new Error(`speech model ${model.name} (${model.kind}) has no ${key} file`);
  return file;
}

/** The OfflineRecognizer config for a discovered model. */
export function buildRecognizerConfig(model: SpeechModel, numThreads: number): OfflineRecognizerConfig {
  const modelConfig: OfflineRecognizerConfig['modelConfig'] = {
    tokens: model.files.tokens,
    numThreads,
    provider: 'cpu',
    debug: 0,
  };
  switch (model.kind) {
    case 'whisper':
      modelConfig.whisper = {
        encoder: required(model, 'encoder'),
        decoder: required(model, 'decoder'),
        task: 'transcribe',
      };
      break;
    case 'transducer':
      modelConfig.transducer = {
        encoder: required(model, 'encoder'),
        decoder: required(model, 'decoder'),
        joiner: required(model, 'joiner'),
      };
      break;
    case 'paraformer':
      modelConfig.paraformer = { model: required(model, 'model') };
      break;
    case 'sense_voice':
      modelConfig.senseVoice = { model: required(model, 'model'), useInverseTextNormalization: 1 };
      break;
  }
  return {
    featConfig: { sampleRate: MODEL_SAMPLE_RATE, featureDim: 80 },
    modelConfig,
    decodingMethod: 'greedy_search',
  };
}

/** Every model file the config points at, for header checks before loading. */
export function modelFilesOf(model: SpeechModel): string[] {
  const { tokens: _tokens, ...onnx } = model.files;
  return Object.values(onnx).filter((file): file is string => file !== undefined);
}
