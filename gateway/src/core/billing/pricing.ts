import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { ModelRoute } from '../routing/model-registry.js';

/** What a request cost at the route's prices (per million tokens, plus a flat per-request price). */
export function costOf(route: ModelRoute, usage: TokenUsage): number {
  const pricing = route.pricing;
  if (!pricing) return 0;
  const cost =
    (usage.prompt_tokens * pricing.input_per_million + usage.completion_tokens * pricing.output_per_million) /
      1_000_000 +
    (pricing.per_request ?? 0);
  return Math.round(cost * 1e8) / 1e8;
}
