import type { ModelConfig, Pricing } from '../../config/config-schema.js';
import type { Capability } from '../../providers/contracts/capability.js';
import type { EngineStatus, ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { ModelStateRecord, ModelStateRepository } from '../../store/model-state-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Health } from '../../wire/health-schema.js';
import type { BreakerState } from './circuit-breaker.js';
import { cannotServe, RouteHealth } from './route-health.js';
import { DEFAULT_IMAGE_SIZES, DEFAULT_MAX_IMAGES } from '../images/image-generation-defaults.js';

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
  /** Image generation routes: the sizes and the largest `n` they accept. */
  image_sizes?: string[];
  max_images?: number;
}

const HOW_TO_ADD = 'Add a route under `models:` in the config file (GATEWAY_CONFIG) with a provider that serves it, or put a .gguf file in the data folder\'s models/ directory for local language models.';

/** Model ids and aliases to routes; the one place that knows which provider serves which model. */
export class ModelRegistry {
  private readonly routes = new Map<string, ModelRoute>();
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
    const provider = this.providers.get(model.provider);
    if (!provider) return false;
    const route: ModelRoute = {
      id: model.id,
      aliases: model.aliases ?? [],
      provider,
      upstreamModel: model.upstream_model ?? model.id,
      capabilities: new Set(model.capabilities),
      pricing: model.pricing,
      fallbacks: model.fallbacks ?? [],
      maxRetries: model.max_retries ?? 2,
      deadlineMs: model.request_deadline_ms,
      imageSizes: model.image_sizes,
      maxImages: model.max_images,
      ownedBy: model.owned_by ?? provider.id,
      fineTuned: model.id.startsWith('ft:'),
    };
    if (this.routes.has(route.id)) this.remove(route.id);
    this.routes.set(route.id, route);
    for (const name of [route.id, ...route.aliases]) if (!this.byName.has(name)) this.byName.set(name, route);
    return true;
  }

  /** A provider's instance was replaced (edited in Settings): every route on it, whoever added it, calls the new one. */
  rebindProvider(providerId: string): void {
    const provider = this.providers.get(providerId);
    if (!provider) return;
    for (const route of this.routes.values()) if (route.provider.id === providerId) route.provider = provider;
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

  /** The route for a model id or alias, ignoring archive state (for management operations). */
  find(name: string): ModelRoute {
    const route = this.byName.get(name);
    if (!route || this.stateOf(route.id)?.deleted) {
      const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
      throw new GatewayError(404, 'model_not_found', `The model "${shown}" is not served by this gateway. ${HOW_TO_ADD} GET /models lists the models it serves.`, { param: 'model' });
    }
    return route;
  }

  /** The route to run a request on: it must exist, not be archived, and have the capability. */
  resolve(name: string, capability: Capability): ModelRoute {
    const route = this.find(name);
    if (this.stateOf(route.id)?.archived) {
      throw new GatewayError(404, 'model_archived', `The model "${name}" is archived. Unarchive it with DELETE /v1/models/${route.id}/archive to use it again.`, { param: 'model' });
    }
    if (!route.capabilities.has(capability)) {
      const others = this.withCapability(capability).map((candidate) => candidate.id);
      const hint = others.length > 0 ? `Models that do: ${others.join(', ')}.` : `No configured model does. ${HOW_TO_ADD}`;
      throw new GatewayError(400, 'capability_not_supported', `The model "${name}" does not support ${capability}. ${hint}`, { param: 'model' });
    }
    return route;
  }

  withCapability(capability: Capability): ModelRoute[] {
    return [...this.routes.values()].filter((route) => route.capabilities.has(capability) && !this.stateOf(route.id)?.archived && !this.stateOf(route.id)?.deleted);
  }

  all(): ModelRoute[] {
    return [...this.routes.values()].filter((route) => !this.stateOf(route.id)?.deleted);
  }

  info(route: ModelRoute): ModelInfo {
    const stored = this.stateOf(route.id);
    const status = route.provider.modelStatus?.(route.upstreamModel) ?? route.provider.status();
    const health = this.health.route(route);
    const refused = cannotServe(health) && status.state !== 'unavailable';
    return {
      id: route.id,
      object: 'model',
      created: this.created,
      owned_by: route.ownedBy,
      capabilities: [...route.capabilities],
      aliases: route.aliases,
      archived: stored?.archived ?? false,
      provider: route.provider.id,
      state: refused ? 'unavailable' : status.state,
      ...(refused && health.reason ? { state_detail: health.reason } : status.detail ? { state_detail: status.detail } : {}),
      health,
      breaker_state: this.breakerState(route.provider.id),
      fine_tuned: route.fineTuned,
      metadata: stored?.metadata ?? {},
      ...(route.pricing ? { pricing: route.pricing } : {}),
      ...(route.capabilities.has('image_generation') ? { image_sizes: route.imageSizes ?? DEFAULT_IMAGE_SIZES, max_images: route.maxImages ?? DEFAULT_MAX_IMAGES } : {}),
    };
  }

  /** Fine-tuned model management (SPEC.md: update, archive, unarchive, delete). */
  async updateState(name: string, change: (current: ModelStateRecord) => ModelStateRecord): Promise<ModelStateRecord> {
    const route = this.find(name);
    if (!route.fineTuned) {
      throw new GatewayError(422, 'not_fine_tuned', `"${route.id}" is a base model; only fine-tuned models (ids starting with "ft:") can be updated, archived or deleted.`, { param: 'model' });
    }
    const current = this.stateOf(route.id) ?? { id: route.id, metadata: {}, archived: false, deleted: false, updated_at: Date.now() };
    const next = { ...change(current), id: route.id, updated_at: Date.now() };
    await this.state.save(next);
    this.states.set(next.id, next);
    this.announce();
    return next;
  }
}
