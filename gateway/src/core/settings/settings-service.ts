import type { ModelConfig, ProviderConfig } from '../../config/config-schema.js';
import type { GatewayOptions } from '../../config/gateway-options.js';
import { routeProviders, routeShapeProblem } from '../../config/route-providers.js';
import { compileGuardrails } from '../guardrails/compile-guardrails.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ProviderBreakers } from '../routing/provider-breakers.js';
import type { RouteHealth } from '../routing/route-health.js';
import type {
  EntrySource,
  ProviderBody,
  ProviderCheck,
  ProviderSetting,
  RouteSetting,
  ServerChange,
  ServerSetting,
} from '../../wire/settings-schemas.js';
import { CHECKABLE, checkProvider } from './provider-check.js';
import {
  applyChange,
  liveServerSettings,
  settingSources,
  type LiveServerSettings,
  type ServerOverrides,
} from './server-settings.js';
import { RunningProviders, type RunningProvidersDeps } from './running-providers.js';
import { RESERVED_ID_PREFIX, type SettingsStore } from './settings-store.js';

interface Deps extends RunningProvidersDeps {
  options: GatewayOptions;
  store: SettingsStore;
  breakers: ProviderBreakers;
  /** The one source of a provider's health (shared with /status and /v1/models). */
  health: RouteHealth;
  providerTypes: readonly string[];
}

interface EffectiveProvider {
  config: ProviderConfig;
  source: EntrySource;
}

function builtInSets(ids: GatewayOptions['builtIn']): { providers: ReadonlySet<string>; models: ReadonlySet<string> } {
  return { providers: new Set(ids?.providers), models: new Set(ids?.models) };
}

/**
 * Providers, model routes and the live server settings as the console shows and edits them. The
 * config file is the source at start; the console's changes are stored in the database, laid over
 * the file at every start, and applied to the running gateway at once. Every change reads the stored
 * state back and applies it (`reload`), which is also what another instance does when team mode
 * announces a change.
 */
export class SettingsService {
  private fileProviders: ReadonlyMap<string, ProviderConfig>;
  private fileRoutes: ReadonlyMap<string, ModelConfig>;
  /** Which of the file's providers and routes are the gateway's own built-ins (not written in the config file). */
  private builtIn: { providers: ReadonlySet<string>; models: ReadonlySet<string> };
  /** The config file's server settings (the console's overrides lie over the editable ones). */
  private fileServer: GatewayOptions['server'];
  private effectiveProviders = new Map<string, EffectiveProvider>();
  private providerKeysOf: { providers: ReadonlyMap<string, EffectiveProvider> | undefined; keys: readonly string[] } = {
    providers: undefined,
    keys: [],
  };
  /** Config-file providers the console removed. */
  private removedProviders = new Set<string>();
  private readonly running: RunningProviders;
  private routes = new Map<string, RouteSetting>();
  /** The last test per provider, in memory: a test does not touch the breaker, so nothing else records it. */
  private readonly lastChecks = new Map<string, ProviderCheck>();
  private serverOverrides: ServerOverrides = {};
  private liveServer: LiveServerSettings;
  private announce: () => void = () => undefined;

  constructor(private readonly deps: Deps) {
    this.fileProviders = new Map(deps.options.providers.map((config) => [config.id, config]));
    this.fileRoutes = new Map(deps.options.models.map((model) => [model.id, model]));
    this.builtIn = builtInSets(deps.options.builtIn);
    for (const config of deps.options.providers)
      this.effectiveProviders.set(config.id, { config, source: this.providerSource(config.id) });
    this.running = new RunningProviders(deps, deps.options.providers);
    for (const model of deps.options.models)
      this.routes.set(model.id, { ...model, source: this.routeSource(model.id), in_config: true });
    this.fileServer = deps.options.server;
    this.liveServer = liveServerSettings(this.fileServer, {});
  }

  /**
   * The config file was read again (core/settings/config-file-reload.ts): its providers, routes and
   * editable server settings become the base the console's stored changes lie over, applied at once.
   */
  async useConfigFile(file: Pick<GatewayOptions, 'providers' | 'models' | 'server' | 'builtIn'>): Promise<void> {
    this.fileProviders = new Map(file.providers.map((config) => [config.id, config]));
    this.fileRoutes = new Map(file.models.map((model) => [model.id, model]));
    this.builtIn = builtInSets(file.builtIn);
    this.fileServer = file.server;
    await this.reload();
  }

  /** Sends a note after every change this instance makes (team mode tells the other instances). */
  announceChangesTo(listener: () => void): void {
    this.announce = listener;
  }

  /** Reads the stored changes and applies them: at start, after each change, and when another instance made one. */
  async reload(): Promise<void> {
    const stored = await this.deps.store.read();
    this.applyProviders(stored.providers);
    this.applyRoutes(stored.routes);
    this.serverOverrides = stored.server;
    this.liveServer = liveServerSettings(this.fileServer, stored.server);
  }

  // --- server settings ---

  /** The editable server settings as they apply now (read on every request by CORS, the host guard and the request log). */
  live(): LiveServerSettings {
    return this.liveServer;
  }

  /** How many days the request log keeps entries (live: the console may change it). */
  readonly requestLogRetentionDays = (): number => this.liveServer.requestLogRetentionDays;
  /** The origins CORS allows, read by the CORS hook on every request (live). */
  readonly corsOrigins = (): string[] => this.liveServer.corsOrigins;
  /** The Host names a loopback gateway answers besides loopback ones, read by the host guard on every request (live). */
  readonly allowedHosts = (): string[] => this.liveServer.allowedHosts;
  /** Whether the request log keeps bodies, read by the usage recorder on every request (live). */
  readonly requestLogBodies = (): boolean => this.liveServer.requestLogBodies;

  server(): ServerSetting {
    const { options } = this.deps;
    const live = this.live();
    return {
      config_path: options.configPath ?? null,
      data_dir: options.dataDir,
      cors_origins: live.corsOrigins,
      allowed_hosts: live.allowedHosts,
      request_log_bodies: live.requestLogBodies,
      request_log_retention_days: live.requestLogRetentionDays,
      trace_content: live.traceContent,
      sources: settingSources(this.serverOverrides),
    };
  }

  async changeServer(change: ServerChange): Promise<ServerSetting> {
    await this.deps.store.saveServer(applyChange(this.serverOverrides, change));
    await this.changed();
    return this.server();
  }

  // --- providers ---

  listProviders(): ProviderSetting[] {
    const running = [...this.effectiveProviders.values()].map(({ config, source }) =>
      this.providerSetting(config, source),
    );
    const removed = [...this.removedProviders].map((id) =>
      this.providerSetting(this.fileProviders.get(id)!, 'console', true),
    );
    return [...running, ...removed].sort((a, b) => a.id.localeCompare(b.id));
  }

  /** An upstream HTTP provider (its entry has a base URL), as opposed to a local engine. */
  isUpstream(id: string): boolean {
    return !!this.effectiveProviders.get(id)?.config.base_url;
  }

  /** The last test of a provider on this instance, if any. */
  lastCheck(id: string): ProviderCheck | undefined {
    return this.lastChecks.get(id);
  }

  providerTypes(): string[] {
    return [...this.deps.providerTypes];
  }

  /** The API keys of the providers in effect, for redaction in the request log: the same array until they change. */
  providerKeys(): readonly string[] {
    if (this.providerKeysOf.providers !== this.effectiveProviders) {
      const keys = [...this.effectiveProviders.values()]
        .map(({ config }) => config.api_key)
        .filter((key): key is string => !!key);
      this.providerKeysOf = { providers: this.effectiveProviders, keys };
    }
    return this.providerKeysOf.keys;
  }

  async addProvider(id: string, input: ProviderBody): Promise<ProviderSetting> {
    if (this.effectiveProviders.has(id))
      throw new GatewayError(409, 'provider_exists', `A provider "${id}" already exists; edit it instead.`, {
        param: 'id',
      });
    if (this.removedProviders.has(id)) {
      throw new GatewayError(
        409,
        'provider_exists',
        `The config file defines a provider "${id}" that was removed here; restore it (POST /settings/providers/${id}/reset) or choose another id.`,
        { param: 'id' },
      );
    }
    return this.saveProvider(this.providerConfig(id, input, undefined));
  }

  async editProvider(id: string, input: ProviderBody): Promise<ProviderSetting> {
    const current = this.effectiveProviders.get(id);
    if (!current) throw this.providerNotFound(id);
    this.lastChecks.delete(id);
    return this.saveProvider(this.providerConfig(id, input, current.config));
  }

  /** Stops a provider; a config-file provider stays hidden across restarts until it is reset. Refused while routes use it. */
  async deleteProvider(id: string): Promise<void> {
    if (!this.effectiveProviders.has(id)) throw this.providerNotFound(id);
    // The registry also holds routes the settings do not list (local model files).
    const routes = this.deps.models
      .all()
      .filter((route) => route.provider.id === id)
      .map((route) => route.id);
    if (routes.length > 0) {
      throw new GatewayError(
        409,
        'provider_in_use',
        `The provider "${id}" serves the routes ${routes.join(', ')}; delete them or move them to another provider first.`,
        { param: 'id' },
      );
    }
    this.lastChecks.delete(id);
    if (this.fileProviders.has(id)) await this.deps.store.markProviderDeleted(id);
    else await this.deps.store.clearProvider(id);
    await this.changed();
  }

  /** Drops the console's change to a config-file provider: the file's entry applies again. */
  async resetProvider(id: string): Promise<ProviderSetting> {
    const original = this.fileProviders.get(id);
    if (!original)
      throw new GatewayError(404, 'provider_not_in_config', `The config file has no provider "${id}" to go back to.`, {
        param: 'id',
      });
    await this.deps.store.clearProvider(id);
    this.lastChecks.delete(id);
    await this.changed();
    return this.providerSetting(original, this.providerSource(id));
  }

  /** A real one-token call to the provider: on the given route, its first route that allows one, or its test model. */
  async testProvider(providerId: string, modelId?: string): Promise<ProviderCheck> {
    const check = await this.check(providerId, modelId);
    this.lastChecks.set(providerId, check);
    return check;
  }

  private async check(providerId: string, modelId?: string): Promise<ProviderCheck> {
    const provider = this.running.get(providerId);
    if (!provider)
      throw new GatewayError(404, 'provider_not_found', `No provider "${providerId}". GET /settings lists them.`, {
        param: 'id',
      });
    const candidates = this.listRoutes().filter(
      (route) => usesProvider(route, providerId) && (modelId === undefined || route.id === modelId),
    );
    if (modelId !== undefined && candidates.length === 0)
      throw new GatewayError(400, 'model_not_found', `The provider "${providerId}" serves no route "${modelId}".`, {
        param: 'model',
      });
    for (const capability of CHECKABLE) {
      const route = candidates.find(
        (candidate) =>
          candidate.capabilities.includes(capability) &&
          provider.capabilities[capability as 'chat' | 'completions' | 'embeddings'],
      );
      if (route)
        return checkProvider(provider, { id: route.id, upstreamModel: upstreamModelOn(route, providerId), capability });
    }
    const testModel = this.effectiveProviders.get(providerId)?.config.test_model;
    if (typeof testModel === 'string' && testModel) {
      const capability = (['chat', 'embeddings', 'completions'] as const).find(
        (candidate) => provider.capabilities[candidate],
      );
      if (capability) return checkProvider(provider, { id: testModel, upstreamModel: testModel, capability });
    }
    if (
      candidates.length === 0 &&
      CHECKABLE.some((capability) => provider.capabilities[capability as 'chat' | 'completions' | 'embeddings'])
    ) {
      throw new GatewayError(
        400,
        'test_model_required',
        `The provider "${providerId}" has no route to test with; add a route, or set the provider's test model (the upstream model name a test calls).`,
        { param: 'test_model' },
      );
    }
    return checkProvider(provider, null);
  }

  // --- routes ---

  listRoutes(): RouteSetting[] {
    return [...this.routes.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Adds or replaces a route; requests use it from the next one on. */
  async saveRoute(route: ModelConfig): Promise<RouteSetting> {
    if (route.id.startsWith(RESERVED_ID_PREFIX))
      throw new GatewayError(400, 'invalid_route_id', `A route id may not start with "${RESERVED_ID_PREFIX}".`, {
        param: 'id',
      });
    const shape = routeShapeProblem(route);
    if (shape) throw new GatewayError(422, 'invalid_route', `Invalid route: ${shape.message}.`, { param: shape.field });
    for (const provider of routeProviders(route))
      if (!this.running.has(provider.provider))
        throw new GatewayError(
          400,
          'provider_not_found',
          `No provider "${provider.provider}". Providers: ${this.running.ids().join(', ') || 'none'}.`,
          { param: provider.field },
        );
    for (const name of route.aliases ?? []) {
      const owner = [...this.routes.values()].find(
        (other) => other.id !== route.id && (other.id === name || other.aliases?.includes(name)),
      );
      if (owner)
        throw new GatewayError(409, 'alias_taken', `The name "${name}" already belongs to the route "${owner.id}".`, {
          param: 'aliases',
        });
    }
    try {
      compileGuardrails(route.guardrails);
    } catch (error) {
      throw new GatewayError(422, 'invalid_guardrail', (error as Error).message, { param: 'guardrails' });
    }
    await this.deps.store.saveRoute(route);
    await this.changed();
    return this.routes.get(route.id)!;
  }

  /** Removes a route at once; a config-file route stays removed across restarts until it is reset. */
  async deleteRoute(id: string): Promise<void> {
    if (!this.routes.has(id))
      throw new GatewayError(404, 'route_not_found', `No model route "${id}". GET /settings lists the routes.`, {
        param: 'id',
      });
    if (this.fileRoutes.has(id)) await this.deps.store.markRouteDeleted(id);
    else await this.deps.store.clearRoute(id);
    await this.changed();
  }

  /** Drops the console's change to a config-file route: the file's definition applies again. */
  async resetRoute(id: string): Promise<RouteSetting> {
    if (!this.fileRoutes.has(id))
      throw new GatewayError(404, 'route_not_in_config', `The config file has no route "${id}" to go back to.`, {
        param: 'id',
      });
    await this.deps.store.clearRoute(id);
    await this.changed();
    return this.routes.get(id) ?? { ...this.fileRoutes.get(id)!, source: this.routeSource(id), in_config: true };
  }

  // --- applying ---

  private async changed(): Promise<void> {
    await this.reload();
    this.announce();
  }

  private applyProviders(stored: ReadonlyMap<string, ProviderConfig | null>): void {
    const desired = new Map<string, EffectiveProvider>();
    const removed = new Set<string>();
    for (const [id, config] of this.fileProviders) desired.set(id, { config, source: this.providerSource(id) });
    for (const [id, config] of stored) {
      if (config) desired.set(id, { config, source: 'console' });
      else if (this.fileProviders.has(id)) {
        desired.delete(id);
        removed.add(id);
      }
    }
    this.running.apply(new Map([...desired].map(([id, { config }]) => [id, config])));
    this.effectiveProviders = desired;
    this.removedProviders = removed;
  }

  private applyRoutes(overrides: Awaited<ReturnType<SettingsStore['read']>>['routes']): void {
    const next = new Map<string, RouteSetting>();
    for (const model of this.fileRoutes.values())
      next.set(model.id, { ...model, source: this.routeSource(model.id), in_config: true });
    for (const override of overrides) {
      if (override.deleted) next.delete(override.id);
      else next.set(override.id, { ...override.route, source: 'console', in_config: this.fileRoutes.has(override.id) });
    }
    for (const id of this.routes.keys()) if (!next.has(id)) this.deps.models.remove(id);
    // Every route is added again: its provider's instance may have been replaced.
    for (const [id, route] of next) {
      const { source: _source, in_config: _inConfig, ...model } = route;
      if (!this.deps.models.add(model)) {
        this.deps.models.remove(id);
        if (route.source === 'console') next.delete(id);
      }
    }
    this.routes = next;
  }

  private providerConfig(id: string, input: ProviderBody, current: ProviderConfig | undefined): ProviderConfig {
    if (!this.deps.providerTypes.includes(input.type)) {
      throw new GatewayError(
        422,
        'unknown_provider_type',
        `Unknown provider type "${input.type}". Types: ${this.deps.providerTypes.join(', ')}.`,
        { param: 'type' },
      );
    }
    const {
      api_key: _key,
      base_url: _url,
      timeouts: _timeouts,
      test_model: _test,
      ...extras
    } = current ?? { id, type: input.type };
    const apiKey = input.api_key === null ? undefined : input.api_key || current?.api_key;
    return {
      ...extras,
      id,
      type: input.type,
      ...(input.base_url ? { base_url: input.base_url } : {}),
      ...(apiKey ? { api_key: apiKey } : {}),
      ...(input.timeouts ? { timeouts: input.timeouts } : {}),
      ...(input.test_model ? { test_model: input.test_model } : {}),
    };
  }

  private async saveProvider(config: ProviderConfig): Promise<ProviderSetting> {
    try {
      await this.running.check(config);
    } catch (error) {
      throw new GatewayError(
        422,
        'invalid_provider',
        `The provider "${config.id}" (${config.type}) cannot start: ${(error as Error).message}`,
        { param: 'type' },
      );
    }
    await this.deps.store.saveProvider(config);
    await this.changed();
    return this.providerSetting(config, 'console');
  }

  /** Where a provider the console has not changed comes from. */
  private providerSource(id: string): EntrySource {
    return this.builtIn.providers.has(id) ? 'built_in' : 'config';
  }

  /** Where a route the console has not changed comes from. */
  private routeSource(id: string): EntrySource {
    return this.builtIn.models.has(id) ? 'built_in' : 'config';
  }

  private providerSetting(config: ProviderConfig, source: EntrySource, removed = false): ProviderSetting {
    const instance = removed ? undefined : this.running.get(config.id);
    const status = instance?.status() ?? {
      state: removed ? 'removed' : 'unavailable',
      detail: removed ? 'Removed in the console; the config file still defines it.' : 'Could not start.',
    };
    return {
      id: config.id,
      type: config.type,
      ...(config.base_url ? { base_url: config.base_url } : {}),
      has_api_key: !!config.api_key,
      ...(config.timeouts ? { timeouts: config.timeouts } : {}),
      ...(typeof config.test_model === 'string' ? { test_model: config.test_model } : {}),
      source,
      in_config: this.fileProviders.has(config.id),
      removed,
      state: status.state,
      ...(status.detail ? { detail: status.detail } : {}),
      breaker: this.deps.breakers.snapshot(config.id),
      health: instance ? this.deps.health.provider(instance) : { state: 'unavailable', reason: status.detail },
      routes: this.routesOf(config.id),
      ...(!removed && this.lastChecks.has(config.id) ? { last_check: this.lastChecks.get(config.id) } : {}),
    };
  }

  private routesOf(providerId: string): string[] {
    return this.listRoutes()
      .filter((route) => usesProvider(route, providerId))
      .map((route) => route.id);
  }

  private providerNotFound(id: string): GatewayError {
    return new GatewayError(404, 'provider_not_found', `No provider "${id}". GET /settings lists them.`, {
      param: 'id',
    });
  }
}

/** The model name a route sends to `providerId` (its deployment's on a balanced route). */
function upstreamModelOn(route: ModelConfig, providerId: string): string {
  return routeProviders(route).find((provider) => provider.provider === providerId)?.upstreamModel ?? route.id;
}

function usesProvider(route: ModelConfig, providerId: string): boolean {
  return routeProviders(route).some((provider) => provider.provider === providerId);
}
