import type { BatchEndpoint } from './batch-types';

/** The endpoints a typed prompt can be composed for; the others take images or documents, so their JSONL is uploaded. */
export const COMPOSABLE_ENDPOINTS = [
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
] as const satisfies readonly BatchEndpoint[];
export const isComposable = (endpoint: BatchEndpoint): boolean =>
  (COMPOSABLE_ENDPOINTS as readonly BatchEndpoint[]).includes(endpoint);

export interface ComposedRequest {
  customId: string;
  prompt: string;
}

export interface ComposeOptions {
  endpoint: string;
  model: string;
  maxTokens: number | null;
}

/** The request body a prompt becomes on each endpoint a composed batch can target. */
function bodyFor(prompt: string, { endpoint, model, maxTokens }: ComposeOptions): Record<string, unknown> {
  const limit = maxTokens === null ? {} : { max_tokens: maxTokens };
  if (endpoint === '/v1/embeddings') return { model, input: prompt };
  if (endpoint === '/v1/completions') return { model, prompt, ...limit };
  return { model, messages: [{ role: 'user', content: prompt }], ...limit };
}

/** One `{custom_id, method, url, body}` line per non-empty prompt (OpenAI's batch input layout). */
export function buildBatchJsonl(requests: readonly ComposedRequest[], options: ComposeOptions): string {
  return requests
    .filter((r) => r.prompt.trim())
    .map((r, i) =>
      JSON.stringify({
        custom_id: r.customId.trim() || `request-${i + 1}`,
        method: 'POST',
        url: options.endpoint,
        body: bodyFor(r.prompt, options),
      }),
    )
    .join('\n');
}
