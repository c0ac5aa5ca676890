import type { AccountConfig, QuotasConfig, ServerConfig } from './config-schema.js';
import type { DEFAULT_SERVER } from './defaults.js';
import { camelCased, type CamelCased } from './camel-cased.js';
import { sectionSettings, type SectionSettings, type WithDefaults } from './section-settings.js';
import { parseUrlFetchAllow } from './url-fetch-allow.js';

/** The config file's `server:` settings, defaults filled in: its names and units. */
export type ServerFileSettings = WithDefaults<ServerConfig, typeof DEFAULT_SERVER>;

const KIB = 1024;
const MIB = 1024 * 1024;

const SERVER_CONVERTED = [
  'body_limit_mb',
  'inflated_body_limit_mb',
  'url_fetch_allow',
  'schema_max_kb',
  'schema_max_depth',
  'schema_max_nodes',
  'schema_job_timeout_ms',
  'response_cache_max_entries',
  'response_cache_max_mb',
] as const;

const convertServer = (server: ServerFileSettings) => ({
  bodyLimitBytes: Math.round(server.body_limit_mb * MIB),
  inflatedBodyLimitBytes: Math.round(server.inflated_body_limit_mb * MIB),
  urlFetchAllow: parseUrlFetchAllow(server.url_fetch_allow),
  /** Clients' JSON schemas (OCR, Mistral's annotation formats, chat response formats and tool parameters). */
  clientSchemas: {
    maxBytes: server.schema_max_kb * KIB,
    maxDepth: server.schema_max_depth,
    maxNodes: server.schema_max_nodes,
    jobTimeoutMs: server.schema_job_timeout_ms,
  },
  /** The response cache's bounds (core/cache). */
  responseCacheLimits: {
    maxEntries: server.response_cache_max_entries,
    maxBytes: Math.round(server.response_cache_max_mb * MIB),
  },
});

/** `options.server`: the config file's server settings under camelCase names, sizes in bytes. */
export type ServerSettings = SectionSettings<
  ServerFileSettings,
  (typeof SERVER_CONVERTED)[number],
  ReturnType<typeof convertServer>
>;

export const serverSettings = (server: ServerFileSettings): ServerSettings =>
  sectionSettings(server, SERVER_CONVERTED, convertServer);

export type AccountSettings = CamelCased<Required<AccountConfig>>;

export const accountSettings = (account: Required<AccountConfig>): AccountSettings => camelCased(account);

const QUOTAS_CONVERTED = [
  'file_storage_mb_per_key',
  'agent_max_kb',
  'agent_all_versions_max_kb',
  'conversation_max_mb',
] as const;

const convertQuotas = (quotas: Required<QuotasConfig>) => ({
  fileBytesPerKey: Math.round(quotas.file_storage_mb_per_key * MIB),
  agentMaxBytes: Math.round(quotas.agent_max_kb * KIB),
  agentAllVersionsMaxBytes: Math.round(quotas.agent_all_versions_max_kb * KIB),
  conversationMaxBytes: Math.round(quotas.conversation_max_mb * MIB),
});

/** What one key may keep stored (the config file's `quotas:`), sizes in bytes. */
export type StorageQuotaSettings = SectionSettings<
  Required<QuotasConfig>,
  (typeof QUOTAS_CONVERTED)[number],
  ReturnType<typeof convertQuotas>
>;

export const storageQuotaSettings = (quotas: Required<QuotasConfig>): StorageQuotaSettings =>
  sectionSettings(quotas, QUOTAS_CONVERTED, convertQuotas);
