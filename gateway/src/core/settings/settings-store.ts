import type { ModelConfig, ProviderConfig } from '../../config/config-schema.js';
import type { RouteOverride, SettingsRepository } from '../../store/settings-repository.js';
import { ConfigError } from '../../config/config-error.js';
import { SecretBox, UnreadableSecretError } from './secret-box.js';
import type { ServerOverrides } from './server-settings.js';

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
 * documents in `gateway_settings`. A provider's `api_key` is stored encrypted (`secrets`); one
 * stored in plain text by an earlier version is encrypted in place the first time it is read.
 */
export class SettingsStore {
  constructor(
    private readonly repository: SettingsRepository,
    private readonly secrets: { box: SecretBox; source: string },
  ) {}

  async read(): Promise<StoredSettings> {
    const routes = (await this.repository.routeOverrides()).filter((row) => !row.id.startsWith(RESERVED_ID_PREFIX));
    const providers = new Map<string, ProviderConfig | null>();
    for (const { id, value } of await this.repository.documents('provider')) {
      if (value === null) {
        providers.set(id, null);
        continue;
      }
      const stored = value.api_key;
      if (typeof stored === 'string' && stored !== '' && !SecretBox.isSealed(stored))
        await this.repository.rewriteDocument('provider', id, { ...value, api_key: this.secrets.box.seal(stored) });
      providers.set(id, {
        ...value,
        id,
        ...(typeof stored === 'string' ? { api_key: this.openKey(id, stored) } : {}),
      } as ProviderConfig);
    }
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
    const document = withoutId(config);
    if (typeof document.api_key === 'string' && document.api_key !== '')
      document.api_key = this.secrets.box.seal(document.api_key);
    await this.repository.saveDocument('provider', config.id, document);
  }

  /** Remembers that a config-file provider was removed, so it stays hidden after a restart. */
  async markProviderDeleted(id: string): Promise<void> {
    await this.repository.saveDocument('provider', id, null);
  }

  async clearProvider(id: string): Promise<void> {
    await this.repository.clearDocument('provider', id);
  }

  private openKey(providerId: string, stored: string): string {
    try {
      return this.secrets.box.open(stored);
    } catch (error) {
      if (!(error instanceof UnreadableSecretError)) throw error;
      throw new ConfigError(
        `The stored API key of provider "${providerId}" cannot be decrypted with this gateway's secret key (${this.secrets.source}): ${error.message}. Start with the key it was stored under (the same GATEWAY_SECRET_KEY on every instance, or the data folder's secret.key), or delete the provider's row in gateway_settings and add it again in the console.`,
      );
    }
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
