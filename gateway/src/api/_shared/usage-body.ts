import type { TokenUsage } from '../../providers/contracts/sampling.js';

/** Token usage in OpenAI's wire shape. */
export function usageBody(usage: TokenUsage) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
  };
}
