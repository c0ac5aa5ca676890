import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ModelRoute } from '../../core/routing/model-registry.js';
import { costOf } from '../../core/billing/pricing.js';
import type { StreamUsageEstimate } from '../../core/billing/stream-usage-estimate.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';

/** Puts a model request's tokens and cost where the usage recorder finds them; the cost also goes in X-Request-Cost. */
export function recordUsage(request: FastifyRequest, reply: FastifyReply, route: ModelRoute, usage: TokenUsage): number {
  const cost = costOf(route, usage);
  request.usage = { model: route.id, prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, cost };
  if (!reply.sent && !reply.raw.headersSent) reply.header('X-Request-Cost', String(cost));
  return cost;
}

export function usageBody(usage: TokenUsage) {
  return { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

/** Bills a stream the client leaves early at the estimate (the final usage, when it comes, replaces it). */
export function billEstimateOnDisconnect(request: FastifyRequest, route: ModelRoute, estimate: StreamUsageEstimate): void {
  request.usageEstimate = () => {
    const usage = estimate.usage();
    return { model: route.id, ...usage, cost: costOf(route, usage) };
  };
}
