import { routeProviders, routeShapeProblem } from './route-providers.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config-error.js';
import type { ConfigFile, ModelConfig, ProviderConfig } from './config-schema.js';
import { readConfigFile } from './read-config-file.js';
import {
  BUILT_IN_MODELS,
  BUILT_IN_PROVIDERS,
  DEFAULT_ACCOUNT,
  DEFAULT_QUOTAS,
  DEFAULT_SERVER,
  localLanguageModelRoutes,
  TEAM_DRAIN_DELAY_MS,
} from './defaults.js';
import { accountSettings, serverSettings, storageQuotaSettings, type ServerFileSettings } from './file-settings.js';
import type { GatewayOptions } from './gateway-options.js';
import { withDefaults } from './section-settings.js';
import { loadOtlpMetricsSettings } from './otlp-metrics-settings.js';
import { loadTeamSettings } from './team-settings.js';
import { mcpServerShapeProblem, type McpServerConfig } from '../wire/mcp-server-schemas.js';
import { loadTraceSettings } from './trace-settings.js';

export interface LoadOptionsInput {
  env: NodeJS.ProcessEnv;
  overrides?: { dataDir?: string; adminKey?: string; host?: string; port?: number; configPath?: string };
}

const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
  return dir;
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The OS's per-user application-data folder. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  switch (platform()) {
    case 'win32':
      return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Switchyard');
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', 'Switchyard');
    default:
      return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'switchyard');
  }
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`GATEWAY_PORT: "${value}" is not a port number (0-65535)`);
  }
  return Number(value);
}

function parseLogLevel(value: string | undefined): GatewayOptions['logLevel'] {
  const level = value ?? 'warn';
  if (!['silent', 'error', 'warn', 'info', 'debug'].includes(level)) {
    throw new ConfigError(`GATEWAY_LOG_LEVEL: "${level}" is not one of silent, error, warn, info, debug`);
  }
  return level as GatewayOptions['logLevel'];
}

function ggufNamesIn(modelsDir: string): string[] {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir)
    .filter((name) => name.toLowerCase().endsWith('.gguf'))
    .sort()
    .map((name) => name.slice(0, -'.gguf'.length));
}

/** Config-file entries replace built-in ones with the same id; the rest of the built-ins stay. */
function mergeById<T extends { id: string }>(builtIn: T[], fromFile: T[]): T[] {
  const ids = new Set(fromFile.map((entry) => entry.id));
  return [...fromFile, ...builtIn.filter((entry) => !ids.has(entry.id))];
}

/** The ids of the built-in entries the config file does not redefine. */
function notRedefined(builtIn: readonly { id: string }[], fromFile: readonly { id: string }[]): string[] {
  const ids = new Set(fromFile.map((entry) => entry.id));
  return builtIn.filter((entry) => !ids.has(entry.id)).map((entry) => entry.id);
}

function checkReferences(providers: ProviderConfig[], models: ModelConfig[], source: string): void {
  const providerIds = new Set<string>();
  providers.forEach((provider, index) => {
    if (providerIds.has(provider.id))
      throw new ConfigError(`${source}: providers[${index}].id: duplicate provider id "${provider.id}"`);
    providerIds.add(provider.id);
  });
  const names = new Map<string, number>();
  models.forEach((model, index) => {
    const shape = routeShapeProblem(model);
    if (shape) throw new ConfigError(`${source}: models[${index}].${shape.field}: ${shape.message}`);
    for (const provider of routeProviders(model))
      if (!providerIds.has(provider.provider))
        throw new ConfigError(
          `${source}: models[${index}].${provider.field}: no provider with id "${provider.provider}" (known: ${[...providerIds].join(', ')})`,
        );
    for (const name of [model.id, ...(model.aliases ?? [])]) {
      if (names.has(name))
        throw new ConfigError(
          `${source}: models[${index}]: the id or alias "${name}" is already used by models[${names.get(name)}]`,
        );
      names.set(name, index);
    }
  });
}

/** Each MCP server has a unique id and exactly one of `command` (stdio) and `url` (HTTP). */
function checkMcpServers(servers: McpServerConfig[], source: string): void {
  const ids = new Set<string>();
  servers.forEach((server, index) => {
    const at = `${source}: mcp_servers[${index}]`;
    if (ids.has(server.id)) throw new ConfigError(`${at}.id: duplicate MCP server id "${server.id}"`);
    ids.add(server.id);
    const problem = mcpServerShapeProblem(server);
    if (problem) throw new ConfigError(`${at}: ${problem}`);
  });
}

function instanceIdFrom(env: NodeJS.ProcessEnv): string | undefined {
  const id = env.GATEWAY_INSTANCE_ID?.trim();
  if (id && id.length > 200) throw new ConfigError('GATEWAY_INSTANCE_ID: longer than 200 characters');
  return id || undefined;
}

/** Node refuses a headers timeout longer than a (non-zero) request timeout. */
function checkConnectionTimeouts({ headers_timeout_ms, request_timeout_ms }: ServerFileSettings): void {
  if (request_timeout_ms > 0 && headers_timeout_ms > request_timeout_ms) {
    throw new ConfigError(
      `server.headers_timeout_ms (${headers_timeout_ms}) must not be longer than server.request_timeout_ms (${request_timeout_ms})`,
    );
  }
}

/** GATEWAY_METRICS_TOKEN over server.metrics_token; a short token is refused like the config file's. */
function metricsToken(env: NodeJS.ProcessEnv, fromFile: string | undefined): string | undefined {
  const fromEnv = env.GATEWAY_METRICS_TOKEN?.trim();
  if (fromEnv === undefined || fromEnv === '') return fromFile;
  if (fromEnv.length < 16)
    throw new ConfigError(
      'GATEWAY_METRICS_TOKEN: must be at least 16 characters (a scraper sends it as a bearer token)',
    );
  return fromEnv;
}

export async function loadGatewayOptions(input: LoadOptionsInput): Promise<GatewayOptions> {
  const { env, overrides = {} } = input;
  const configPath = overrides.configPath ?? env.GATEWAY_CONFIG;
  const file: ConfigFile = configPath ? await readConfigFile(resolve(configPath), env) : {};
  const dataDir = resolve(overrides.dataDir ?? env.GATEWAY_DATA_DIR ?? defaultDataDir(env));
  const filesDir = resolve(env.GATEWAY_FILES_DIR?.trim() || join(dataDir, 'files'));
  const team = loadTeamSettings(env);
  const server = withDefaults(
    file.server,
    team.redisUrl ? { ...DEFAULT_SERVER, drain_delay_ms: TEAM_DRAIN_DELAY_MS } : DEFAULT_SERVER,
  );

  const builtInModels = [...localLanguageModelRoutes(ggufNamesIn(join(dataDir, 'models'))), ...BUILT_IN_MODELS];
  const providers = mergeById(BUILT_IN_PROVIDERS, file.providers ?? []);
  const models = mergeById(builtInModels, file.models ?? []);
  checkReferences(providers, models, configPath ?? 'built-in defaults');
  const mcpServers = file.mcp_servers ?? [];
  checkMcpServers(mcpServers, configPath ?? 'config');

  const consoleDir = join(packageRoot, 'dist', 'renderer');
  const host = overrides.host ?? env.GATEWAY_HOST ?? '127.0.0.1';
  if (!host.trim()) throw new ConfigError('GATEWAY_HOST: must not be empty');
  checkConnectionTimeouts(server);

  return {
    host,
    port: overrides.port ?? (env.GATEWAY_PORT !== undefined ? parsePort(env.GATEWAY_PORT) : 8080),
    dataDir,
    filesDir,
    configPath,
    adminKey: overrides.adminKey ?? (env.GATEWAY_ADMIN_KEY || undefined),
    secretKey: env.GATEWAY_SECRET_KEY || undefined,
    server: serverSettings({
      ...server,
      instance_id: instanceIdFrom(env) ?? server.instance_id,
      metrics_token: metricsToken(env, server.metrics_token),
    }),
    team,
    otlpMetrics: loadOtlpMetricsSettings(env),
    traces: loadTraceSettings(env),
    account: accountSettings(withDefaults(file.account, DEFAULT_ACCOUNT)),
    quotas: storageQuotaSettings(withDefaults(file.quotas, DEFAULT_QUOTAS)),
    providers,
    models,
    mcpServers,
    builtIn: {
      providers: notRedefined(BUILT_IN_PROVIDERS, file.providers ?? []),
      models: notRedefined(builtInModels, file.models ?? []),
    },
    hub: { endpoint: env.HF_ENDPOINT || 'https://huggingface.co', token: env.HF_TOKEN || undefined },
    githubApi: env.GITHUB_API_URL || 'https://api.github.com',
    consoleDir: existsSync(join(consoleDir, 'index.html')) ? consoleDir : undefined,
    version: packageVersion(),
    logLevel: parseLogLevel(env.GATEWAY_LOG_LEVEL),
  };
}
