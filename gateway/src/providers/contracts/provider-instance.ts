import type { MediaDecoder } from '../../media/media-decoder.js';
import type { EngineState } from '../../wire/engine-state-schema.js';
import type { ChatProvider } from './chat.js';
import type { ClassificationProvider } from './classification.js';
import type { CompletionProvider } from './completions.js';
import type { EmbeddingProvider } from './embeddings.js';
import type { ImageGenerationProvider } from './image-generation.js';
import type { ModerationProvider } from './moderation.js';
import type { OcrProvider } from './ocr.js';
import type { ResponsesProvider } from './responses.js';
import type { NativeEngines } from '../_shared/native-engines.js';
import type { StageTracer } from './stage-tracer.js';
import type { TranscriptionProvider } from './transcription.js';

/** What a provider kind offers; core looks a capability up here. Vision and documents are served through chat/ocr. */
export interface ProviderCapabilities {
  chat?: ChatProvider;
  completions?: CompletionProvider;
  embeddings?: EmbeddingProvider;
  ocr?: OcrProvider;
  image_generation?: ImageGenerationProvider;
  transcription?: TranscriptionProvider;
  moderation?: ModerationProvider;
  classification?: ClassificationProvider;
  /** Native Responses API, when configured; otherwise core translates Responses to chat. */
  responses?: ResponsesProvider;
}

export type { EngineState };

export interface EngineStatus {
  state: EngineState;
  detail?: string;
}

/** Requests waiting for and running on a local engine's queue (a llama.cpp model, the OCR workers). */
export interface QueueDepth {
  queue: string;
  waiting: number;
  running: number;
}

export interface ProviderInstance {
  id: string;
  type: string;
  capabilities: ProviderCapabilities;
  /** Starts loading what should be warm at start (OCR workers); resolves when ready. */
  warm?(): Promise<void>;
  status(): EngineStatus;
  /** Per upstream model name, for engines that load models individually. */
  modelStatus?(model: string): EngineStatus;
  /** Local engines: their queues right now, for /metrics. */
  queues?(): QueueDepth[];
  /** Unloads one model (its file is about to be deleted); requests running on it fail. */
  releaseModel?(model: string): Promise<void>;
  close(): Promise<void>;
}

export interface ProviderLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Downloads a file an upstream answered with as a URL (a generated image) under the gateway's URL
 * policy: a URL on `trustedOrigin` (the provider's own base URL) is fetched as the provider is; any
 * other host, and every redirect, must be a public address unless `server.url_fetch_allow` names it;
 * at most `maxBytes`, within a time limit. Refusals and failures are the gateway's own errors.
 */
export type UpstreamFileFetcher = (
  url: string,
  request: { trustedOrigin: string; maxBytes: number; signal: AbortSignal; providerId: string },
) => Promise<Buffer>;

/** Everything a provider factory gets. `options` is the provider's entry from the config file. */
export interface ProviderContext {
  id: string;
  options: ProviderOptions;
  dataDir: string;
  logger: ProviderLogger;
  /** How files an upstream names by URL are fetched; without it such answers are refused. */
  fetchUpstreamFile?: UpstreamFileFetcher;
  /** The gateway's decoding threads for documents and images; a provider without it starts its own. */
  media?: MediaDecoder;
  /** Native engines shared with the other instances (llama.cpp's); a provider without it loads its own. */
  engines?: NativeEngines;
  /** Where the provider's stages (upstream calls, queue waits, model loads, generation, OCR pages) record their spans. */
  tracer?: StageTracer;
}

export interface ProviderOptions {
  type: string;
  base_url?: string;
  api_key?: string;
  /** Milliseconds. */
  timeouts?: { connect?: number; first_byte?: number; idle?: number };
  /** Free-form, provider-specific settings (threads, pool size, idle unload, model files...). */
  [key: string]: unknown;
}

export type ProviderFactory = (context: ProviderContext) => ProviderInstance;
