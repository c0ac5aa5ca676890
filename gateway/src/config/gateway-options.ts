import type { ModelConfig, ProviderConfig } from './config-schema.js';
import type { AccountSettings, ServerSettings, StorageQuotaSettings } from './file-settings.js';
import type { OtlpMetricsSettings } from './otlp-metrics-settings.js';
import type { TeamSettings } from './team-settings.js';
import type { McpServerConfig } from '../wire/mcp-server-schemas.js';
import type { TraceSettings } from './trace-settings.js';

export interface BuiltInIds {
  providers: readonly string[];
  models: readonly string[];
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
  /** The OTLP export of the metrics (OTEL_EXPORTER_OTLP_* variables); absent, only /metrics shows them. */
  otlpMetrics?: OtlpMetricsSettings;
  /** OpenTelemetry traces (the OTEL_* variables); absent, spans are recorded for the request log only. */
  traces?: TraceSettings;
  account: AccountSettings;
  quotas: StorageQuotaSettings;
  providers: ProviderConfig[];
  models: ModelConfig[];
  /** The config file's `mcp_servers` (the console adds its own, stored in the database). */
  mcpServers: McpServerConfig[];
  /** The ids among `providers` and `models` that are the gateway's own (its local engines, the GGUF files in the models folder), not the config file's. */
  builtIn?: BuiltInIds;
  /** The model hub the download manager talks to (HF_ENDPOINT, HF_TOKEN). */
  hub: { endpoint: string; token?: string };
  /** GitHub's REST API, where the download manager finds Tesseract's language models (GITHUB_API_URL). */
  githubApi?: string;
  /** Folder of the built console (served at /ui/), when it exists. */
  consoleDir?: string;
  version: string;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
}
