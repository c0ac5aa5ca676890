import type { ModelConfig } from '../../config/config-schema.js';
import type { GatewayOptions } from '../../config/gateway-options.js';
import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { SettingsRepository } from '../../store/settings-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { BreakerSnapshot } from '../routing/circuit-breaker.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { ProviderBreakers } from '../routing/provider-breakers.js';
import { CHECKABLE, checkProvider, type ProviderCheck } from './provider-check.js';

/** Where a route's definition comes from: the config file, or the console (added there, or a file route edited there). */
export type RouteSource = 'config' | 'console';

export interface RouteSetting extends ModelConfig {
  source: RouteSource;
  /** The config file defines this id: deleting the console's version brings the file's back only after "reset". */
  in_config: boolean;
}

export interface ProviderSetting {
  id: string;
  type: string;
  base_url?: string;
  /** Whether a key is set; the key itself never leaves the gateway. */
  has_api_key: boolean;
  state: string;
  detail?: string;
  breaker: BreakerSnapshot;
  routes: string[];
}

export interface ServerSetting {
  config_path: string | null;
  data_dir: string;
  cors_origins: string[];
  allowed_hosts: string[];
  request_log_bodies: boolean;
  request_log_retention_days: number;
}

interface Deps {
  options: GatewayOptions;
  repository: SettingsRepository;
  models: ModelRegistry;
  providers: ReadonlyMap<string, ProviderInstance>;
  breakers: ProviderBreakers;
}

/**
 * Providers and model routes as the console shows and edits them. The config file is the source at
 * start; route changes made here are stored in the database, laid over the file's routes at every
 * start, and applied to the running registry at once (no restart).
 */
export class SettingsService {
  private readonly fileRoutes: ReadonlyMap<string, ModelConfig>;
  /** The routes as they are now: the file's, with the console's changes laid over. */
  private readonly routes = new Map<string, RouteSetting>();

  constructor(private readonly deps: Deps) {
    this.fileRoutes = new Map(deps.options.models.map((model) => [model.id, model]));
    for (const model of deps.options.models) this.routes.set(model.id, { ...model, source: 'config', in_config: true });
  }

  /** Lays the stored console changes over the config file's routes; called once at start. */
  applyStored(): void {
    for (const override of this.deps.repository.routeOverrides()) {
      if (override.deleted) {
        this.routes.delete(override.id);
        this.deps.models.remove(override.id);
      } else if (this.deps.models.add(override.route)) {
        this.routes.set(override.id, { ...override.route, source: 'console', in_config: this.fileRoutes.has(override.id) });
      }
    }
  }

  listRoutes(): RouteSetting[] {
    return [...this.routes.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  listProviders(): ProviderSetting[] {
    const configs = new Map(this.deps.options.providers.map((config) => [config.id, config]));
    return [...this.deps.providers.values()].map((provider) => {
      const config = configs.get(provider.id);
      const status = provider.status();
      return {
        id: provider.id,
        type: provider.type,
        ...(config?.base_url ? { base_url: config.base_url } : {}),
        has_api_key: !!config?.api_key,
        state: status.state,
        ...(status.detail ? { detail: status.detail } : {}),
        breaker: this.deps.breakers.snapshot(provider.id),
        routes: this.listRoutes().filter((route) => route.provider === provider.id).map((route) => route.id),
      };
    });
  }

  server(): ServerSetting {
    const { options } = this.deps;
    return {
      config_path: options.configPath ?? null,
      data_dir: options.dataDir,
      cors_origins: options.server.corsOrigins,
      allowed_hosts: options.server.allowedHosts,
      request_log_bodies: options.server.requestLogBodies,
      request_log_retention_days: options.server.requestLogRetentionDays,
    };
  }

  /** Adds or replaces a route; requests use it from the next one on. */
  saveRoute(route: ModelConfig): RouteSetting {
    if (!this.deps.providers.has(route.provider)) {
      throw new GatewayError(400, 'provider_not_found', `No provider "${route.provider}". Providers: ${[...this.deps.providers.keys()].join(', ') || 'none'}.`, { param: 'provider' });
    }
    for (const name of route.aliases ?? []) {
      const owner = [...this.routes.values()].find((other) => other.id !== route.id && (other.id === name || other.aliases?.includes(name)));
      if (owner) throw new GatewayError(409, 'alias_taken', `The name "${name}" already belongs to the route "${owner.id}".`, { param: 'aliases' });
    }
    this.deps.models.add(route);
    this.deps.repository.saveRoute(route);
    const saved: RouteSetting = { ...route, source: 'console', in_config: this.fileRoutes.has(route.id) };
    this.routes.set(route.id, saved);
    return saved;
  }

  /** Removes a route at once; a config-file route stays removed across restarts until it is reset. */
  deleteRoute(id: string): void {
    if (!this.routes.has(id)) throw this.routeNotFound(id);
    this.deps.models.remove(id);
    this.routes.delete(id);
    if (this.fileRoutes.has(id)) this.deps.repository.markRouteDeleted(id);
    else this.deps.repository.clearRoute(id);
  }

  /** Drops the console's change to a config-file route: the file's definition applies again. */
  resetRoute(id: string): RouteSetting {
    const original = this.fileRoutes.get(id);
    if (!original) throw new GatewayError(404, 'route_not_in_config', `The config file has no route "${id}" to go back to.`, { param: 'id' });
    this.deps.repository.clearRoute(id);
    this.deps.models.add(original);
    const restored: RouteSetting = { ...original, source: 'config', in_config: true };
    this.routes.set(id, restored);
    return restored;
  }

  /** A real one-token call to the provider, on the given route or its first route that allows one. */
  async testProvider(providerId: string, modelId?: string): Promise<ProviderCheck> {
    const provider = this.deps.providers.get(providerId);
    if (!provider) throw new GatewayError(404, 'provider_not_found', `No provider "${providerId}". GET /settings lists them.`, { param: 'id' });
    const candidates = this.listRoutes().filter((route) => route.provider === providerId && (modelId === undefined || route.id === modelId));
    if (modelId !== undefined && candidates.length === 0) throw new GatewayError(400, 'model_not_found', `The provider "${providerId}" serves no route "${modelId}".`, { param: 'model' });
    for (const capability of CHECKABLE) {
      const route = candidates.find((candidate) => candidate.capabilities.includes(capability) && provider.capabilities[capability as 'chat' | 'completions' | 'embeddings']);
      if (route) return checkProvider(provider, { id: route.id, upstreamModel: route.upstream_model ?? route.id, capability });
    }
    return checkProvider(provider, null);
  }

  private routeNotFound(id: string): GatewayError {
    return new GatewayError(404, 'route_not_found', `No model route "${id}". GET /settings lists the routes.`, { param: 'id' });
  }
}
