import type { ModelConfig, Pricing } from '../../config/config-schema.js';
import type { Capability } from '../../providers/contracts/capability.js';
import type { EngineStatus, ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { ModelStateRecord, ModelStateRepository } from '../../store/model-state-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Health } from '../../wire/health-schema.js';
import type { BreakerState } from './circuit-breaker.js';
import { cannotServe, RouteHealth } from './route-health.js';
import { DEFAULT_IMAGE_SIZES, DEFAULT_MAX_IMAGES } from '../images/image-generation-defaults.js';
import { CLIENT_MODEL_NAMES } from '../../wire/default-models.js';
import type { ResponseCacheConfig } from '../../wire/response-cache-schema.js';
import { ROUTING_STRATEGY_ALIASES, type RoutingStrategy } from '../../wire/model-route-schema.js';
import type { DeploymentStatus } from '../../wire/deployment-status-schema.js';
import { DeploymentSet, type DeploymentMember } from './deployment-set.js';
import { LocalDeploymentUsage, type DeploymentUsage } from './deployment-usage.js';
import { RouteDeployment } from './route-deployment.js';
import { routeProviders } from '../../config/route-providers.js';
import { compileGuardrails, type CompiledGuardrails } from '../guardrails/compile-guardrails.js';

/** Each of the names other clients send (CLIENT_MODEL_NAMES) and the model id it leads to. */
const CLIENT_NAME_TARGETS: ReadonlyMap<string, string> = new Map(
  Object.entries(CLIENT_MODEL_NAMES).flatMap(([id, names]) => names.map((name) => [name, id] as const)),
);

export interface ModelRoute {
  id: string;
  aliases: string[];
  provider: ProviderInstance;
  upstreamModel: string;
  capabilities: ReadonlySet<Capability>;
  pricing?: Pricing;
  fallbacks: string[];
  maxRetries: number;
  /** Overall deadline of a request on this model, when the model sets its own. */
  deadlineMs?: number;
  imageSizes?: string[];
  maxImages?: number;
  ownedBy: string;
  fineTuned: boolean;
  /** The route's response cache, when it has one. */
  cache?: ResponseCacheConfig;
  /** A balanced route's deployments (`provider` and `upstreamModel` are then its first one's). */
  deployments?: DeploymentSet<ModelRoute>;
  /** On the route a deployment's request runs on: that deployment. */
  deployment?: RouteDeployment;
  /** Checks on what the route is sent and answers (core/guardrails). */
  guardrails?: CompiledGuardrails;
}

export interface ModelInfo {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  capabilities: Capability[];
  aliases: string[];
  archived: boolean;
  provider: string;
  /** The engine's state, `unavailable` too when the route's health says it cannot serve (an unreachable upstream). */
  state: EngineStatus['state'];
  state_detail?: string;
  /** The route's health, the same verdict /status and Settings give its provider. */
  health: Health;
  breaker_state: BreakerState;
  fine_tuned: boolean;
  metadata: Record<string, string>;
  pricing?: Pricing;
  /** Local OCR routes: the language models installed (Tesseract's codes), once the engine has started. */
  ocr_languages?: string[];
  /** Image generation routes: the sizes and the largest `n` they accept. */
  image_sizes?: string[];
  max_images?: number;
  /** Balanced routes: how a deployment is chosen, and each deployment's state and traffic. */
  routing_strategy?: RoutingStrategy;
  deployments?: DeploymentStatus[];
}

const HOW_TO_ADD =
  "Add a route under `models:` in the config file (GATEWAY_CONFIG) with a provider that serves it, or put a .gguf file in the data folder's models/ directory for local language models.";
/** The capabilities a local GGUF file serves, so a missing model of these can be downloaded or dropped in. */
const LANGUAGE_MODEL_CAPABILITIES: ReadonlySet<Capability> = new Set(['chat', 'completions', 'embeddings']);

/** How to get a model that serves `capability`: the console's catalog and a .gguf file for language models, a config route for every capability. */
function howToAdd(capability: Capability): string {
  if (!LANGUAGE_MODEL_CAPABILITIES.has(capability))
    return `Add a route with capabilities [${capability}] under \`models:\` in the config file (GATEWAY_CONFIG) with a provider that serves it.`;
  const download =
    capability === 'chat' ? 'Download one from the console (the model catalog on the Chat or Models page), put' : 'Put';
  return `${download} a .gguf file in the data folder's models/ directory, or add a route with capabilities [${capability}] under \`models:\` in the config file (GATEWAY_CONFIG).`;
}

/** Model ids and aliases to routes; the one place that knows which provider serves which model. */
export class ModelRegistry {
  private readonly routes = new Map<string, ModelRoute>();
  /** The minute counts of deployments with no rpm/tpm on a route that does not rank by them: this instance's alone. */
  private readonly localUsage = new LocalDeploymentUsage();
  private readonly byName = new Map<string, ModelRoute>();
  private readonly created = Math.floor(Date.now() / 1000);
  /** Stored model state, cached: read on every request, written only by management calls. */
  private readonly states = new Map<string, ModelStateRecord>();
  /** Told after every state change (team mode: the other instances then read the state again). */
  private announce: () => void = () => undefined;

  constructor(
    models: ModelConfig[],
    private readonly providers: ReadonlyMap<string, ProviderInstance>,
    private readonly state: ModelStateRepository,
    private readonly breakerState: (providerId: string) => BreakerState = () => 'closed',
    private readonly health: RouteHealth = RouteHealth.enginesOnly(),
    /** The per-minute counters of deployments' rpm and tpm (shared through Redis in team mode). */
    private readonly usage: DeploymentUsage = new LocalDeploymentUsage(),
  ) {
    for (const model of models) this.add(model);
  }

  /** Reads the stored model state (at start, and when another instance changed it). */
  async reloadState(): Promise<void> {
    const stored = await this.state.all();
    this.states.clear();
    for (const record of stored) this.states.set(record.id, record);
  }

  announceChangesTo(listener: () => void): void {
    this.announce = listener;
  }

  /** Adds (or replaces) a route at run time, e.g. for a model file that was just downloaded. Returns false when its provider does not exist. */
  add(model: ModelConfig): boolean {
    const served = routeProviders(model);
    const providers = served.map((entry) => this.providers.get(entry.provider));
    const provider = providers[0];
    if (!provider || providers.some((each) => each === undefined)) return false;
    const route: ModelRoute = {
      id: model.id,
      aliases: model.aliases ?? [],
      provider,
      upstreamModel: served[0]!.upstreamModel,
      capabilities: new Set(model.capabilities),
      pricing: model.pricing,
      fallbacks: model.fallbacks ?? [],
      maxRetries: model.max_retries ?? 2,
      deadlineMs: model.request_deadline_ms,
      imageSizes: model.image_sizes,
      maxImages: model.max_images,
      ownedBy: model.owned_by ?? provider.id,
      fineTuned: model.id.startsWith('ft:'),
      cache: model.cache,
      guardrails: compileGuardrails(model.guardrails),
    };
    if (model.deployments) route.deployments = this.deploymentsOf(route, model, providers as ProviderInstance[]);
    if (this.routes.has(route.id)) this.remove(route.id);
    this.routes.set(route.id, route);
    for (const name of [route.id, ...route.aliases]) if (!this.byName.has(name)) this.byName.set(name, route);
    return true;
  }

  private deploymentsOf(
    route: ModelRoute,
    model: ModelConfig,
    providers: ProviderInstance[],
  ): DeploymentSet<ModelRoute> {
    const named = model.routing_strategy ?? 'weighted';
    const strategy = ROUTING_STRATEGY_ALIASES[named] ?? (named as RoutingStrategy);
    const ids = new Set<string>();
    const members = (model.deployments ?? []).map((config, index): DeploymentMember<ModelRoute> => {
      let id = `${config.provider}/${config.upstream_model ?? model.id}`;
      for (let n = 2; ids.has(id); n++) id = `${config.provider}/${config.upstream_model ?? model.id}#${n}`;
      ids.add(id);
      // Only what limits or ranks by the minute's usage is counted where every instance sees it (Redis in team mode).
      const shared = strategy === 'usage_based' || config.rpm !== undefined || config.tpm !== undefined;
      const usage = shared ? this.usage : this.localUsage;
      const deployment = new RouteDeployment(model.id, id, providers[index]!, config, usage);
      const served: ModelRoute = { ...route, provider: deployment.provider, upstreamModel: deployment.upstreamModel };
      served.deployment = deployment;
      return { deployment, route: served };
    });
    return new DeploymentSet(strategy, members, (providerId) => this.breakerState(providerId) === 'open');
  }

  /** A provider's instance was replaced (edited in Settings): every route on it, whoever added it, calls the new one. */
  rebindProvider(providerId: string): void {
    const provider = this.providers.get(providerId);
    if (!provider) return;
    for (const route of this.routes.values()) {
      if (route.provider.id === providerId) route.provider = provider;
      for (const member of route.deployments?.members ?? [])
        if (member.deployment.provider.id === providerId) member.deployment.provider = member.route.provider = provider;
    }
  }

  /** Every deployment of every balanced route, for /metrics. */
  deployments(): { route: ModelRoute; deployment: RouteDeployment }[] {
    return this.all().flatMap((route) =>
      (route.deployments?.members ?? []).map((member) => ({ route, deployment: member.deployment })),
    );
  }

  /** Removes a route added at run time (a deleted model file); its aliases go with it. */
  remove(id: string): void {
    const route = this.routes.get(id);
    if (!route) return;
    this.routes.delete(id);
    for (const [name, target] of this.byName) if (target === route) this.byName.delete(name);
  }

  private stateOf(id: string): ModelStateRecord | undefined {
    return this.states.get(id);
  }

  /**
   * The route for a model id or alias, ignoring archive state (for management operations). The 404
   * for a name no route has names the models that serve `capability`, when the caller knows it.
   */
  find(name: string, capability?: Capability): ModelRoute {
    const route = this.routeNamed(name);
    if (!route || this.stateOf(route.id)?.deleted) {
      const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
      throw new GatewayError(
        404,
        'model_not_found',
        `The model "${shown}" is not served by this gateway. ${capability ? this.servedBy(capability) : `${HOW_TO_ADD} GET /models lists the models it serves.`}`,
        { param: 'model' },
      );
    }
    return route;
  }

  /** The route a name leads to: a route's id or alias, else the model a client's name stands for (CLIENT_MODEL_NAMES). */
  private routeNamed(name: string): ModelRoute | undefined {
    const route = this.byName.get(name);
    if (route) return route;
    const target = CLIENT_NAME_TARGETS.get(name);
    return target === undefined ? undefined : this.byName.get(target);
  }

  /** The sentence of an error that says which models serve `capability`, or how to get one. */
  private servedBy(capability: Capability): string {
    const able = this.withCapability(capability).map((route) => route.id);
    const names =
      able.length > 8
        ? `${able.slice(0, 8).join(', ')} and ${able.length - 8} more (GET /models lists them)`
        : able.join(', ');
    return able.length > 0
      ? `Models that serve ${capability} here: ${names}.${capability === 'chat' ? ` ${howToAdd(capability)}` : ''}`
      : `No model serves ${capability} here. ${howToAdd(capability)}`;
  }

  /**
   * The route of a request that may name no model: the named one (`resolve`); else `preferred` (the
   * SPEC's default) when it serves the capability, else the first route that does, so a request
   * without `model` goes to a model that can answer it (embeddings to the built-in embedding model
   * when no language model is installed).
   */
  resolveOrDefault(name: string | undefined, capability: Capability, preferred: string): ModelRoute {
    if (name !== undefined && name !== '') return this.resolve(name, capability);
    const wanted = this.routeNamed(preferred);
    const able = this.withCapability(capability);
    // Nothing serves it: the preferred model's own error (not there: 404 naming how to get one; there without the capability: 400).
    return (wanted && able.includes(wanted) ? wanted : able[0]) ?? this.resolve(preferred, capability);
  }

  /** The route to run a request on: it must exist, not be archived, and have the capability. */
  resolve(name: string, capability: Capability): ModelRoute {
    return this.usable(this.find(name, capability), name, capability);
  }

  /** `resolve` for a route already found by `name`: it must not be archived, and must have the capability. */
  usable(route: ModelRoute, name: string, capability: Capability): ModelRoute {
    if (this.stateOf(route.id)?.archived) {
      throw new GatewayError(
        404,
        'model_archived',
        `The model "${name}" is archived. Unarchive it with DELETE /v1/models/${route.id}/archive to use it again.`,
        { param: 'model' },
      );
    }
    if (!route.capabilities.has(capability)) {
      throw new GatewayError(
        400,
        'capability_not_supported',
        `The model "${name}" does not support ${capability}. ${this.servedBy(capability)}`,
        { param: 'model' },
      );
    }
    return route;
  }

  withCapability(capability: Capability): ModelRoute[] {
    return [...this.routes.values()].filter(
      (route) =>
        route.capabilities.has(capability) && !this.stateOf(route.id)?.archived && !this.stateOf(route.id)?.deleted,
    );
  }

  all(): ModelRoute[] {
    return [...this.routes.values()].filter((route) => !this.stateOf(route.id)?.deleted);
  }

  info(route: ModelRoute): ModelInfo {
    const stored = this.stateOf(route.id);
    const status = route.provider.modelStatus?.(route.upstreamModel) ?? route.provider.status();
    const deployments = route.deployments?.members.map((member) => this.deploymentStatus(member.deployment));
    const health = this.health.route(route);
    const refused = cannotServe(health) && status.state !== 'unavailable';
    return {
      id: route.id,
      object: 'model',
      created: this.created,
      owned_by: route.ownedBy,
      capabilities: [...route.capabilities],
      // The names that lead here: an alias another route took first is left out, clients' names (CLIENT_MODEL_NAMES) are in.
      aliases: [...route.aliases, ...(CLIENT_MODEL_NAMES[route.id] ?? [])].filter(
        (alias) => this.routeNamed(alias) === route,
      ),
      archived: stored?.archived ?? false,
      provider: route.provider.id,
      state: refused ? 'unavailable' : status.state,
      ...(refused && health.reason
        ? { state_detail: health.reason }
        : status.detail
          ? { state_detail: status.detail }
          : {}),
      health,
      breaker_state: this.breakerState(route.provider.id),
      fine_tuned: route.fineTuned,
      metadata: stored?.metadata ?? {},
      ...(route.pricing ? { pricing: route.pricing } : {}),
      ...this.ocrLanguages(route),
      ...(route.capabilities.has('image_generation')
        ? { image_sizes: route.imageSizes ?? DEFAULT_IMAGE_SIZES, max_images: route.maxImages ?? DEFAULT_MAX_IMAGES }
        : {}),
      ...(route.deployments && deployments ? { routing_strategy: route.deployments.strategy, deployments } : {}),
    };
  }

  private deploymentStatus(deployment: RouteDeployment): DeploymentStatus {
    const minute = deployment.minuteUsage();
    const latency = deployment.latencyMs();
    return {
      id: deployment.id,
      provider: deployment.provider.id,
      upstream_model: deployment.upstreamModel,
      weight: deployment.weight,
      ...(deployment.rpm !== undefined ? { rpm: deployment.rpm } : {}),
      ...(deployment.tpm !== undefined ? { tpm: deployment.tpm } : {}),
      tags: [...deployment.tags],
      health: this.health.route(deployment),
      breaker_state: this.breakerState(deployment.provider.id),
      cooldown_seconds: deployment.coolingSeconds(),
      in_flight: deployment.inFlight,
      requests: deployment.requests,
      errors: deployment.errors,
      latency_ms: latency === undefined ? null : Math.round(latency * 10) / 10,
      tokens: deployment.tokens,
      spend: Math.round(deployment.spend * 1e8) / 1e8,
      minute_requests: minute.requests,
      minute_tokens: minute.tokens,
    };
  }

  private ocrLanguages(route: ModelRoute): { ocr_languages?: string[] } {
    const languages = route.capabilities.has('ocr') ? route.provider.capabilities.ocr?.languages?.() : undefined;
    return languages ? { ocr_languages: [...languages] } : {};
  }

  /** Fine-tuned model management (SPEC.md: update, archive, unarchive, delete). */
  async updateState(name: string, change: (current: ModelStateRecord) => ModelStateRecord): Promise<ModelStateRecord> {
    const route = this.find(name);
    if (!route.fineTuned) {
      throw new GatewayError(
        422,
        'not_fine_tuned',
        `"${route.id}" is a base model; only fine-tuned models (ids starting with "ft:") can be updated, archived or deleted.`,
        { param: 'model' },
      );
    }
    const current = this.stateOf(route.id) ?? {
      id: route.id,
      metadata: {},
      archived: false,
      deleted: false,
      updated_at: Date.now(),
    };
    const next = { ...change(current), id: route.id, updated_at: Date.now() };
    await this.state.save(next);
    this.states.set(next.id, next);
    this.announce();
    return next;
  }
}
