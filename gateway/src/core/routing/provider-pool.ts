import type { ProviderConfig } from '../../config/config-schema.js';
import { ConfigError } from '../../config/config-error.js';
import type { ProviderFactory, ProviderInstance, ProviderLogger } from '../../providers/contracts/provider-instance.js';

/** Instantiates every configured provider through the factories of providers/index.ts. */
export function createProviders(
  configs: ProviderConfig[],
  factories: Readonly<Record<string, ProviderFactory>>,
  context: { dataDir: string; logger: (providerId: string) => ProviderLogger; source: string },
): Map<string, ProviderInstance> {
  const providers = new Map<string, ProviderInstance>();
  configs.forEach((config, index) => {
    const factory = factories[config.type];
    if (!factory) {
      throw new ConfigError(`${context.source}: providers[${index}].type: unknown provider type "${config.type}" (known: ${Object.keys(factories).join(', ')})`);
    }
    try {
      providers.set(config.id, factory({ id: config.id, options: config, dataDir: context.dataDir, logger: context.logger(config.id) }));
    } catch (error) {
      throw new ConfigError(`${context.source}: providers[${index}] ("${config.id}"): ${(error as Error).message}`);
    }
  });
  return providers;
}
