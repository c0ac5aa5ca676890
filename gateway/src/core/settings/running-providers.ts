import type { ProviderConfig } from '../../config/config-schema.js';
import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { ModelRegistry } from '../routing/model-registry.js';

export interface RunningProvidersDeps {
  /** The running providers, shared with routing, status and metrics; changed in place. */
  providers: Map<string, ProviderInstance>;
  models: ModelRegistry;
  /** Instantiates a provider from its config entry; throws when the entry is not valid for its type. */
  createProvider(config: ProviderConfig): ProviderInstance;
  /** A provider that could not start or stop cleanly (logged). */
  reportProviderError?(providerId: string, error: unknown): void;
}

/**
 * Makes the running provider instances match a wanted set of config entries: stops the ones no
 * longer wanted, and makes or replaces only those whose entry changed (routes follow the new
 * instance), so an unrelated change never restarts an engine.
 */
export class RunningProviders {
  /** The entry each running instance was made from. */
  private readonly applied = new Map<string, string>();

  constructor(
    private readonly deps: RunningProvidersDeps,
    started: readonly ProviderConfig[],
  ) {
    for (const config of started)
      if (deps.providers.has(config.id)) this.applied.set(config.id, JSON.stringify(config));
  }

  has(id: string): boolean {
    return this.deps.providers.has(id);
  }

  get(id: string): ProviderInstance | undefined {
    return this.deps.providers.get(id);
  }

  ids(): string[] {
    return [...this.deps.providers.keys()];
  }

  apply(wanted: ReadonlyMap<string, ProviderConfig>): void {
    const { providers } = this.deps;
    for (const [id, instance] of providers) {
      if (wanted.has(id)) continue;
      providers.delete(id);
      this.applied.delete(id);
      this.close(instance);
    }
    for (const [id, config] of wanted) {
      const text = JSON.stringify(config);
      if (this.applied.get(id) === text && providers.has(id)) continue;
      let instance: ProviderInstance;
      try {
        instance = this.deps.createProvider(config);
      } catch (error) {
        // Stored by another version or instance and no longer valid: keep what runs; the list says it could not start.
        this.deps.reportProviderError?.(id, error);
        continue;
      }
      const previous = providers.get(id);
      providers.set(id, instance);
      this.applied.set(id, text);
      this.deps.models.rebindProvider(id);
      if (previous) this.close(previous);
    }
  }

  /** Whether the entry can start: made and closed again at once. Throws the factory's error. */
  async check(config: ProviderConfig): Promise<void> {
    await this.deps.createProvider(config).close();
  }

  private close(instance: ProviderInstance): void {
    instance.close().catch((error: unknown) => this.deps.reportProviderError?.(instance.id, error));
  }
}
