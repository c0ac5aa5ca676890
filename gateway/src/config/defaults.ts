import type { ModelConfig, ProviderConfig } from './config-schema.js';
import type { AccountSettings, ServerSettings } from './gateway-options.js';
import { DEFAULT_CHAT_MODEL, DEFAULT_OCR_MODEL, DEFAULT_VISION_MODEL, DEFAULT_TRANSCRIPTION_MODEL } from '../wire/default-models.js';

/**
 * In team mode a stopping instance stays up but not ready this long, so a balancer polling
 * /health/readiness every 1-2 s (two failures to mark it down) stops sending before the listener closes.
 */
export const TEAM_DRAIN_DELAY_MS = 5_000;

export const DEFAULT_SERVER: ServerSettings = {
  bodyLimitBytes: 50 * 1024 * 1024,
  allowedHosts: [],
  corsOrigins: [],
  compressionThresholdBytes: 1024,
  requestLogSize: 500,
  requestLogBodies: false,
  requestLogRetentionDays: 7,
  shutdownGraceMs: 10_000,
  drainDelayMs: 0,
  warmEngines: true,
  // 5 minutes: past today's worst case of one hanging route (60 s first byte x 3 attempts), under the
  // 10 minutes SDKs wait by default, and room for long non-streamed answers and OCR on a CPU.
  requestDeadlineMs: 300_000,
  urlFetchAllow: [],
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 72_000,
  // 8 lines at once per instance, 4 of one batch: two batches share an instance evenly, and an
  // upstream sees at most 4 × instances concurrent requests from one batch.
  batchConcurrency: 8,
  batchConcurrencyPerBatch: 4,
  batchRecoverySeconds: 10,
  // Ten times the largest real extraction schemas seen (a few hundred properties); Ajv compiles
  // 10,000 values in about a second on one core, and 32 levels are 15 of nested properties.
  clientSchemas: { maxBytes: 256 * 1024, maxDepth: 32, maxNodes: 10_000, jobTimeoutMs: 10_000 },
};

/**
 * Circuit breaker of every provider: open after 5 failed requests in a row, first trial after 10 s,
 * the cool-down doubling after each failed trial up to 2 minutes (a provider back from a long
 * outage is noticed within 2 minutes; a flapping one is not hammered more than every 2 minutes).
 */
export const DEFAULT_BREAKER = { failureThreshold: 5, cooldownMs: 10_000, maxCooldownMs: 120_000 } as const;

export const DEFAULT_ACCOUNT: AccountSettings = {
  fullName: 'Local developer',
  currency: 'USD',
  initialBalance: 100,
  defaultCompletionTokens: 1024,
};

export const DEFAULT_EMBEDDING_MODEL = 'svc-embed-local';

/** The built-in provider that serves GGUF files from the data folder's models/ directory. */
export const LOCAL_LLM_PROVIDER = 'local-llm';

/** Built-in local engines; a config file may redefine any of these ids. */
export const BUILT_IN_PROVIDERS: ProviderConfig[] = [
  { id: 'local-ocr', type: 'tesseract' },
  { id: LOCAL_LLM_PROVIDER, type: 'llamacpp' },
  { id: 'local-speech', type: 'sherpa-onnx' },
  { id: 'local-embed', type: 'onnx-embeddings' },
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
  {
    // all-MiniLM-L6-v2, shipped with the app: embeddings with no config, download or network.
    id: DEFAULT_EMBEDDING_MODEL,
    provider: 'local-embed',
    capabilities: ['embeddings'],
    owned_by: 'switchyard-local',
  },
];

/** The route of one local GGUF file, named after the file. */
export function localGgufRoute(name: string, capabilities: ModelConfig['capabilities'] = ['chat', 'completions', 'embeddings']): ModelConfig {
  return { id: name, provider: LOCAL_LLM_PROVIDER, upstream_model: name, capabilities, owned_by: 'switchyard-local' };
}

/** The default chat model's route, served by a local GGUF file. */
export function defaultChatRoute(ggufName: string): ModelConfig {
  return { ...localGgufRoute(ggufName), id: DEFAULT_CHAT_MODEL, aliases: ['svc-large-3', 'svc-large-latest'] };
}

/** Routes for the local GGUF files found in the models folder: each by its file name, the first also as the default chat model. */
export function localLanguageModelRoutes(ggufNames: string[]): ModelConfig[] {
  const routes: ModelConfig[] = ggufNames.map((name) => localGgufRoute(name));
  if (ggufNames.length > 0) routes.unshift(defaultChatRoute(ggufNames[0]));
  return routes;
}
