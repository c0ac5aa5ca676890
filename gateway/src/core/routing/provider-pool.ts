import type { ProviderConfig } from '../../config/config-schema.js';
import { ConfigError } from '../../config/config-error.js';
import type { MediaDecoder } from '../../media/media-decoder.js';
import type { NativeEngines } from '../../providers/_shared/native-engines.js';
import type { StageTracer } from '../../providers/contracts/stage-tracer.js';
import type {
  ProviderFactory,
  ProviderInstance,
  ProviderLogger,
  UpstreamFileFetcher,
} from '../../providers/contracts/provider-instance.js';

export interface ProviderPoolContext {
  dataDir: string;
  logger: (providerId: string) => ProviderLogger;
  source: string;
  /** Files upstreams answer with as URLs go through the gateway's URL policy (core/url-fetch). */
  fetchUpstreamFile: UpstreamFileFetcher;
  /** The gateway's decoding threads (documents, images). */
  media: MediaDecoder;
  /** Native engines the provider instances share (llama.cpp's). */
  engines: NativeEngines;
  /** Where providers record the spans of their stages. */
  tracer?: StageTracer;
}

/** Instantiates every configured provider through the factories of providers/index.ts. */
export function createProviders(
  configs: ProviderConfig[],
  factories: Readonly<Record<string, ProviderFactory>>,
  context: ProviderPoolContext,
): Map<string, ProviderInstance> {
  const providers = new Map<string, ProviderInstance>();
  configs.forEach((config, index) => {
    if (!factories[config.type]) {
      throw new ConfigError(
        `${context.source}: providers[${index}].type: unknown provider type "${config.type}" (known: ${Object.keys(factories).join(', ')})`,
      );
    }
    try {
      providers.set(config.id, createProvider(config, factories, context));
    } catch (error) {
      throw new ConfigError(`${context.source}: providers[${index}] ("${config.id}"): ${(error as Error).message}`);
    }
  });
  return providers;
}

/** One provider from its config entry (the console adds them at run time); throws when its type is unknown or its entry invalid. */
export function createProvider(
  config: ProviderConfig,
  factories: Readonly<Record<string, ProviderFactory>>,
  context: ProviderPoolContext,
): ProviderInstance {
  const factory = factories[config.type];
  if (!factory) throw new Error(`unknown provider type "${config.type}" (known: ${Object.keys(factories).join(', ')})`);
  return factory({
    id: config.id,
    options: config,
    dataDir: context.dataDir,
    logger: context.logger(config.id),
    fetchUpstreamFile: context.fetchUpstreamFile,
    media: context.media,
    engines: context.engines,
    tracer: context.tracer,
  });
}
