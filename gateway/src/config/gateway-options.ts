import type { ModelConfig, ProviderConfig } from './config-schema.js';
import type { TeamSettings } from './team-settings.js';
import type { UrlFetchAllowEntry } from './url-fetch-allow.js';

export interface BuiltInIds {
  providers: readonly string[];
  models: readonly string[];
}

export interface ServerSettings {
  bodyLimitBytes: number;
  /** A compressed request body is refused with 413 once it inflates past this many bytes. */
  inflatedBodyLimitBytes: number;
  /** A multipart upload, or another request body over 1 MB, that sends nothing for this long is answered 408 and its connection closed. */
  bodyIdleTimeoutMs: number;
  allowedHosts: string[];
  corsOrigins: string[];
  compressionThresholdBytes: number;
  requestLogSize: number;
  requestLogBodies: boolean;
  requestLogRetentionDays: number;
  shutdownGraceMs: number;
  /** SIGTERM: not ready for this long while still serving, before the listener closes (team mode default 5 s). */
  drainDelayMs: number;
  warmEngines: boolean;
  requestDeadlineMs: number;
  /** GATEWAY_INSTANCE_ID, else server.instance_id; hostname-pid when both are absent. */
  instanceId?: string;
  /** Private and loopback addresses that client-given URLs may still be fetched from. */
  urlFetchAllow: UrlFetchAllowEntry[];
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** GATEWAY_METRICS_TOKEN, else server.metrics_token: a bearer token that reads /metrics besides an Owner key. */
  metricsToken?: string;
  /** Batch lines this instance runs at once, all batches together. */
  batchConcurrency: number;
  /** Lines of one batch this instance runs at once. */
  batchConcurrencyPerBatch: number;
  /** PostgreSQL: how often each instance looks for batch lines whose instance died, in seconds. */
  batchRecoverySeconds: number;
  /** OCR jobs a local OCR engine (and page rendering) takes at once, all keys together; the rest wait in turns by key. */
  ocrConcurrency: number;
  /** OCR jobs of one key a local OCR engine takes at once. */
  ocrConcurrencyPerKey: number;
  /** File uploads one key may send at once. */
  uploadConcurrencyPerKey: number;
  /** Threads decoding documents and images, each job's time budget and each thread's heap (MiB). */
  mediaWorkers: number;
  mediaJobTimeoutMs: number;
  mediaJobMemoryMb: number;
  /**
   * Clients' JSON schemas (OCR, Mistral's annotation formats, chat response formats and tool parameters):
   * JSON text length, nesting and number of values, checked before use; and how long one compilation or
   * check of an OCR schema may run on its thread.
   */
  clientSchemas: { maxBytes: number; maxDepth: number; maxNodes: number; jobTimeoutMs: number };
}

/** What one key may keep stored (the config file's `quotas:`). */
export interface StorageQuotaSettings {
  filesPerKey: number;
  fileBytesPerKey: number;
  agentsPerKey: number;
  /** Bytes of one agent version's configuration as JSON. */
  agentMaxBytes: number;
  /** Bytes of one agent's configurations as JSON, every version together. */
  agentAllVersionsMaxBytes: number;
  conversationsPerKey: number;
  /** Bytes of one stored conversation's entries as JSON. */
  conversationMaxBytes: number;
  unfinishedBatchesPerKey: number;
}

export interface AccountSettings {
  fullName: string;
  currency: string;
  initialBalance: number;
  defaultCompletionTokens: number;
}

/** Everything buildGateway needs; produced by loadGatewayOptions from the environment and the config file. */
export interface GatewayOptions {
  host: string;
  port: number;
  dataDir: string;
  /**
   * GATEWAY_FILES_DIR: where the bytes of uploaded, generated and batch files live (default
   * `<dataDir>/files`). In team mode every instance points it at one shared directory.
   */
  filesDir: string;
  /** The file the providers and models came from, for messages. */
  configPath?: string;
  /** Bootstrap Owner key; one is generated and printed at first start when absent. */
  adminKey?: string;
  /** GATEWAY_SECRET_KEY: encrypts secrets at rest (providers' API keys); absent, `<dataDir>/secret.key` is used (made at first start). */
  secretKey?: string;
  server: ServerSettings;
  /** Team mode (several instances sharing Redis); absent or without `redisUrl`, the gateway runs alone. */
  team?: TeamSettings;
  account: AccountSettings;
  quotas: StorageQuotaSettings;
  providers: ProviderConfig[];
  models: ModelConfig[];
  /** The ids among `providers` and `models` that are the gateway's own (its local engines, the GGUF files in the models folder), not the config file's. */
  builtIn?: BuiltInIds;
  /** The model hub the download manager talks to (HF_ENDPOINT, HF_TOKEN). */
  hub: { endpoint: string; token?: string };
  /** Folder of the built console (served at /ui/), when it exists. */
  consoleDir?: string;
  version: string;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
}
