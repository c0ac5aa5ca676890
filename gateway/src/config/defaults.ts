import { availableParallelism } from 'node:os';
import type { AccountConfig, ModelConfig, ProviderConfig, QuotasConfig, ServerConfig } from './config-schema.js';
import {
  DEFAULT_CHAT_MODEL,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_MODERATION_MODEL,
  DEFAULT_OCR_MODEL,
  DEFAULT_VISION_MODEL,
  DEFAULT_TRANSCRIPTION_MODEL,
} from '../wire/default-models.js';

export { DEFAULT_EMBEDDING_MODEL };

/**
 * In team mode a stopping instance stays up but not ready this long, so a balancer polling
 * /health/readiness every 1-2 s (two failures to mark it down) stops sending before the listener closes.
 */
export const TEAM_DRAIN_DELAY_MS = 5_000;

/**
 * The config file's server settings when it does not give them, in its names and units. Two have no
 * default: instance_id (hostname-pid is made up at start) and metrics_token (only an Owner key reads /metrics).
 */
export const DEFAULT_SERVER: Required<Omit<ServerConfig, 'instance_id' | 'metrics_token'>> = {
  body_limit_mb: 50,
  // A JSON body of 4 MB is about a million tokens of text: past any context window, far below the body limit.
  inflated_body_limit_mb: 4,
  body_idle_timeout_ms: 30_000,
  allowed_hosts: [],
  cors_origins: [],
  compression_threshold_bytes: 1024,
  request_log_size: 500,
  request_log_bodies: false,
  request_log_retention_days: 7,
  trace_content: false,
  shutdown_grace_ms: 10_000,
  drain_delay_ms: 0,
  warm_engines: true,
  // 5 minutes: past today's worst case of one hanging route (60 s first byte x 3 attempts), under the
  // 10 minutes SDKs wait by default, and room for long non-streamed answers and OCR on a CPU.
  request_deadline_ms: 300_000,
  url_fetch_allow: [],
  headers_timeout_ms: 30_000,
  request_timeout_ms: 300_000,
  keep_alive_timeout_ms: 72_000,
  // 8 lines at once per instance, 4 of one batch: two batches share an instance evenly, and an
  // upstream sees at most 4 × instances concurrent requests from one batch.
  batch_concurrency: 8,
  batch_concurrency_per_batch: 4,
  batch_recovery_seconds: 10,
  // A local engine has up to 4 workers and reads a document's pages in parallel: 4 documents at
  // once keep it busy, and 2 of one key let another key's first document in at once (behind at
  // most two documents' pages in flight) while one key alone can still keep 2 going.
  ocr_concurrency: 4,
  ocr_concurrency_per_key: 2,
  // A client uploads a few files in parallel at most; more from one key are slow or stalled uploads
  // holding connections and buffers.
  upload_concurrency_per_key: 4,
  // Two decoding threads leave a small machine's event loop a core; a page is rendered in well under
  // a second, so a minute is far past any honest document, and 512 MiB of heap reads any page of one.
  media_workers: Math.min(2, availableParallelism()),
  media_job_timeout_ms: 60_000,
  media_job_memory_mb: 512,
  // Ten times the largest real extraction schemas seen (a few hundred properties); Ajv compiles
  // 10,000 values in about a second on one core, and 32 levels are 15 of nested properties.
  schema_max_kb: 256,
  schema_max_depth: 32,
  schema_max_nodes: 10_000,
  schema_job_timeout_ms: 10_000,
  // The response cache: an answer is a few KB, so this is a few hundred MB at most on disk or in Redis.
  response_cache_max_entries: 10_000,
  response_cache_max_mb: 256,
  // A model that calls tools answers within a few rounds; 8 bounds a model that keeps calling.
  tool_loop_max_steps: 8,
};

/**
 * Circuit breaker of every provider: open after 5 failed requests in a row, first trial after 10 s,
 * the cool-down doubling after each failed trial up to 2 minutes (a provider back from a long
 * outage is noticed within 2 minutes; a flapping one is not hammered more than every 2 minutes).
 */
export const DEFAULT_BREAKER = { failureThreshold: 5, cooldownMs: 10_000, maxCooldownMs: 120_000 } as const;

export const DEFAULT_ACCOUNT: Required<AccountConfig> = {
  full_name: 'Local developer',
  currency: 'USD',
  initial_balance: 100,
  default_completion_tokens: 1024,
};

/**
 * What one key may keep: generous for one developer or service, small enough that a dozen keys
 * cannot fill an ordinary disk or make the database slow to back up. Files: 1,000 and 1 GiB (about
 * 20 uploads at the 50 MB body limit, or a thousand typical documents). Agents: 1,000 of at most
 * 128 KiB a version (room for the 100,000 characters of instructions the API accepts; a long system
 * prompt is a few KiB) and 256 KiB with every version (at most 250 MiB a key; a typical agent of
 * 2 KiB keeps 128 versions). Conversations:
 * 10,000, each at most 16 MiB of entries (hundreds of long turns, or a few with images). Batches: 100 not yet ended at once (ended ones cannot be
 * deleted, so they do not count; each may hold 50,000 lines).
 */
export const DEFAULT_QUOTAS: Required<QuotasConfig> = {
  files_per_key: 1000,
  file_storage_mb_per_key: 1024,
  agents_per_key: 1000,
  agent_max_kb: 128,
  agent_all_versions_max_kb: 256,
  conversations_per_key: 10_000,
  conversation_max_mb: 16,
  unfinished_batches_per_key: 100,
};

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
  {
    // The same model scoring text against labelled examples: moderation and classification offline.
    id: DEFAULT_MODERATION_MODEL,
    provider: 'local-embed',
    capabilities: ['moderation', 'classification'],
    owned_by: 'switchyard-local',
  },
];

/** The route of one local GGUF file, named after the file. */
export function localGgufRoute(
  name: string,
  capabilities: ModelConfig['capabilities'] = ['chat', 'completions', 'embeddings'],
): ModelConfig {
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
