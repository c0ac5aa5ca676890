import { createLlamaCppProvider } from './llamacpp/create-llamacpp-provider.js';
import { createMistralProvider } from './mistral/create-mistral-provider.js';
import { createOnnxEmbeddingsProvider } from './onnx-embeddings/create-onnx-embeddings-provider.js';
import { createOpenAiCompatibleProvider } from './openai-compatible/create-openai-compatible-provider.js';
import { createSherpaOnnxProvider } from './sherpa-onnx/create-sherpa-onnx-provider.js';
import { createTesseractProvider } from './tesseract/create-tesseract-provider.js';
import type { ProviderFactory } from './contracts/provider-instance.js';

/** Provider kinds by the `type` of a config entry; the only place that names them. */
export const PROVIDER_FACTORIES: Readonly<Record<string, ProviderFactory>> = {
  openai: createOpenAiCompatibleProvider,
  'openai-compatible': createOpenAiCompatibleProvider,
  mistral: createMistralProvider,
  llamacpp: createLlamaCppProvider,
  tesseract: createTesseractProvider,
  'sherpa-onnx': createSherpaOnnxProvider,
  'onnx-embeddings': createOnnxEmbeddingsProvider,
};

/** What the local model manager reads from model files on disk. */
export { listGgufModels, readGgufSummary, type GgufSummary } from './llamacpp/create-llamacpp-provider.js';
export { discoverSpeechModels } from './sherpa-onnx/discover-speech-models.js';
export { TESSDATA_DOWNLOADS } from './tesseract/tessdata-folder.js';
