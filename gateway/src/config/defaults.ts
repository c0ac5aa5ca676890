import type { ModelConfig, ProviderConfig } from './config-schema.js';
import type { AccountSettings, ServerSettings } from './gateway-options.js';

export const DEFAULT_SERVER: ServerSettings = {
  bodyLimitBytes: 50 * 1024 * 1024,
  allowedHosts: [],
  corsOrigins: [],
  compressionThresholdBytes: 1024,
  requestLogSize: 500,
  requestLogBodies: false,
  requestLogRetentionDays: 7,
  shutdownGraceMs: 10_000,
  warmEngines: true,
};

export const DEFAULT_ACCOUNT: AccountSettings = {
  fullName: 'Local developer',
  currency: 'USD',
  initialBalance: 100,
};

export const DEFAULT_CHAT_MODEL = 'svc-large-3-2512';
export const DEFAULT_OCR_MODEL = 'svc-ocr-3-2512';
export const DEFAULT_VISION_MODEL = 'svc-vision-3-1-2505';
export const DEFAULT_TRANSCRIPTION_MODEL = 'svc-transcribe-1-2507';

/** Built-in local engines; a config file may redefine any of these ids. */
export const BUILT_IN_PROVIDERS: ProviderConfig[] = [
  { id: 'local-ocr', type: 'tesseract' },
  { id: 'local-llm', type: 'llamacpp' },
  { id: 'local-speech', type: 'sherpa-onnx' },
];

export const BUILT_IN_MODELS: ModelConfig[] = [
  {
    id: DEFAULT_OCR_MODEL,
    aliases: ['svc-ocr-3', 'svc-ocr-latest'],
    provider: 'local-ocr',
    capabilities: ['ocr', 'documents'],
    owned_by: 'switchyard-local',
  },
  {
    id: DEFAULT_VISION_MODEL,
    aliases: ['svc-vision-3-1'],
    provider: 'local-ocr',
    capabilities: ['vision'],
    owned_by: 'switchyard-local',
  },
  {
    id: DEFAULT_TRANSCRIPTION_MODEL,
    aliases: ['svc-transcribe-1'],
    provider: 'local-speech',
    capabilities: ['transcription'],
    owned_by: 'switchyard-local',
  },
];

/** Routes for the local GGUF files found in the models folder: each by its file name, the first also as the default chat model. */
export function localLanguageModelRoutes(ggufNames: string[]): ModelConfig[] {
  const routes: ModelConfig[] = ggufNames.map((name) => ({
    id: name,
    provider: 'local-llm',
    upstream_model: name,
    capabilities: ['chat', 'completions', 'embeddings'],
    owned_by: 'switchyard-local',
  }));
  if (ggufNames.length > 0) {
    routes.unshift({
      id: DEFAULT_CHAT_MODEL,
      aliases: ['svc-large-3', 'svc-large-latest'],
      provider: 'local-llm',
      upstream_model: ggufNames[0],
      capabilities: ['chat', 'completions', 'embeddings'],
      owned_by: 'switchyard-local',
    });
  }
  return routes;
}
