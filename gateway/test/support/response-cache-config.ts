import type { FakeUpstream } from './fake-upstream.js';
import type { TestGateway } from './start-gateway.js';
import { upstreamConfig } from './upstream-config.js';

/** Routes with a response cache (docs/routing.md, "Cache") on a fake upstream, for the cache's tests. */
export const CACHED = 'svc-large-3-2512';
export const SAMPLING = 'sampling-cached';
export const SHARED = 'account-cached';
export const SHORT = 'short-lived';
export const SEMANTIC = 'semantic-cached';
export const BILLED = 'billed-cached';

export function cacheConfig(upstream: FakeUpstream) {
  const base = upstreamConfig(upstream);
  const route = (id: string, cache?: Record<string, unknown>) => ({
    id,
    provider: 'upstream',
    upstream_model: 'my-model',
    capabilities: ['chat'],
    pricing: { input_per_million: 2, output_per_million: 6 },
    ...(cache ? { cache } : {}),
  });
  return {
    providers: base.providers,
    models: [
      { ...base.models[0], cache: { mode: 'exact', ttl_s: 600 } },
      route(SAMPLING, { mode: 'exact', ttl_s: 600, allow_sampling: true }),
      route(SHARED, { mode: 'exact', ttl_s: 600, scope: 'account' }),
      route(SHORT, { mode: 'exact', ttl_s: 1 }),
      route(SEMANTIC, { mode: 'semantic', ttl_s: 600, similarity: 0.9 }),
      route(BILLED, { mode: 'exact', ttl_s: 600, bill_hits: true }),
      route('uncached'),
    ],
  };
}

export const chat = (
  gateway: TestGateway,
  body: unknown,
  init: { key?: string; headers?: Record<string, string> } = {},
) => gateway.request('/v1/chat/completions', { method: 'POST', json: body, ...init });
