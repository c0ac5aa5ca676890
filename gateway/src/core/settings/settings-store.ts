import type { ModelConfig, ProviderConfig } from '../../config/config-schema.js';
import type { RouteOverride, SettingsRepository } from '../../store/settings-repository.js';

/** Server settings the console changed; an absent field means the config file's value applies. */
export interface ServerOverrides {
  cors_origins?: string[];
  allowed_hosts?: string[];
  request_log_bodies?: boolean;
  request_log_retention_days?: number;
}

/** Everything the console changed: route overrides, providers (null: a config-file provider removed) and server settings. */
export interface StoredSettings {
  routes: RouteOverride[];
  providers: Map<string, ProviderConfig | null>;
  server: ServerOverrides;
}

/** Route ids may not start with this (rows under it were providers and server settings before migration 11). */
export const RESERVED_ID_PREFIX = '#';
const SERVER_ID = '';

/**
 * The console's settings: routes in `route_overrides`, providers and the server settings as JSON
 * documents in `gateway_settings`.
 */
export class SettingsStore {
  constructor(private readonly repository: SettingsRepository) {}

  async read(): Promise<StoredSettings> {
    const routes = (await this.repository.routeOverrides()).filter((row) => !row.id.startsWith(RESERVED_ID_PREFIX));
    const providers = new Map<string, ProviderConfig | null>();
    for (const { id, value } of await this.repository.documents('provider')) providers.set(id, value === null ? null : ({ ...value, id } as ProviderConfig));
    const server = (await this.repository.documents('server')).find((document) => document.id === SERVER_ID)?.value;
    return { routes, providers, server: server ? (withoutId(server) as ServerOverrides) : {} };
  }

  async saveRoute(route: ModelConfig): Promise<void> {
    await this.repository.saveRoute(route);
  }

  async markRouteDeleted(id: string): Promise<void> {
    await this.repository.markRouteDeleted(id);
  }

  async clearRoute(id: string): Promise<void> {
    await this.repository.clearRoute(id);
  }

  async saveProvider(config: ProviderConfig): Promise<void> {
    await this.repository.saveDocument('provider', config.id, withoutId(config));
  }

  /** Remembers that a config-file provider was removed, so it stays hidden after a restart. */
  async markProviderDeleted(id: string): Promise<void> {
    await this.repository.saveDocument('provider', id, null);
  }

  async clearProvider(id: string): Promise<void> {
    await this.repository.clearDocument('provider', id);
  }

  async saveServer(overrides: ServerOverrides): Promise<void> {
    if (Object.keys(overrides).length === 0) await this.repository.clearDocument('server', SERVER_ID);
    else await this.repository.saveDocument('server', SERVER_ID, overrides);
  }
}

/** Documents moved from route_overrides still carry their old row id (`#provider:…`, `#server`). */
function withoutId(document: object): Record<string, unknown> {
  const { id: _id, ...rest } = document as Record<string, unknown>;
  return rest;
}
