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

/** Characters of client text counted for the prompt estimate (a bigger body only raises the estimate further). */
const MAX_COUNTED_CHARS = 64 * 1024 * 1024;

/**
 * The characters of every string in a client's JSON body except the model name and inline data
 * (data: URLs are images and audio, priced per request), walked with an explicit stack so no
 * nesting depth can overflow the call stack.
 */
function textCharacters(body: Record<string, unknown>): number {
  let chars = 0;
  const stack: unknown[] = Object.entries(body)
    .filter(([name]) => name !== 'model')
    .map(([, value]) => value);
  while (stack.length > 0 && chars < MAX_COUNTED_CHARS) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!value.startsWith('data:')) chars += value.length;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) stack.push(item);
    }
  }
  return chars;
}

const positiveInteger = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/** The answers a body asks for: `n` choices of each prompt (a completion may send several prompts). */
function answersAsked(body: Record<string, unknown>): number {
  const prompts = Array.isArray(body.prompt) ? Math.max(1, body.prompt.length) : 1;
  return (positiveInteger(body.n) ?? 1) * prompts;
}

/**
 * What a request may cost at most, reserved before the provider is called: the prompt estimated from
 * the body's text (about four characters a token), plus `max_tokens` (or `max_completion_tokens`)
 * completion tokens for each answer of requests that generate text (`n` choices of each prompt),
 * `defaultCompletionTokens` when the client set neither, plus the route's per-request price. Free
 * routes cost 0.
 */
export function estimateRequestCost(
  route: ModelRoute,
  body: Record<string, unknown>,
  defaultCompletionTokens: number,
): number {
  if (!route.pricing) return 0;
  const generates = 'messages' in body || 'prompt' in body;
  const completion = generates
    ? (positiveInteger(body.max_tokens) ?? positiveInteger(body.max_completion_tokens) ?? defaultCompletionTokens) *
      answersAsked(body)
    : 0;
  // Four characters a token, as approximateTokens counts upstreams that report no usage.
  const prompt = Math.ceil(textCharacters(body) / 4);
  return costOf(route, { prompt_tokens: prompt, completion_tokens: completion });
}
