import type { FakeUpstream } from './fake-upstream.js';

export const UPSTREAM_KEY = 'sk-upstream-secret-1234';

/** A config routing the default language model (and a fallback pair) to a fake OpenAI-compatible upstream. */
export function upstreamConfig(upstream: FakeUpstream, extra: { fallbackUpstream?: FakeUpstream } = {}) {
  const providers: Record<string, unknown>[] = [
    {
      id: 'upstream',
      type: 'openai',
      base_url: upstream.url,
      api_key: UPSTREAM_KEY,
      timeouts: { connect: 2000, first_byte: 1500, idle: 1500 },
    },
  ];
  const models: Record<string, unknown>[] = [
    {
      id: 'svc-large-3-2512',
      aliases: ['svc-large-3'],
      provider: 'upstream',
      upstream_model: 'my-model',
      capabilities: ['chat', 'completions', 'embeddings'],
      pricing: { input_per_million: 2, output_per_million: 6 },
      max_retries: 2,
    },
  ];
  if (extra.fallbackUpstream) {
    providers.push({ id: 'backup', type: 'openai', base_url: extra.fallbackUpstream.url, api_key: UPSTREAM_KEY });
    models.push(
      {
        id: 'primary-model',
        provider: 'upstream',
        upstream_model: 'primary',
        capabilities: ['chat'],
        fallbacks: ['backup-model'],
        max_retries: 0,
      },
      { id: 'backup-model', provider: 'backup', upstream_model: 'backup', capabilities: ['chat'] },
    );
  }
  return { providers, models };
}

/** A chat route and a vision route on a fake OpenAI-compatible upstream, and an OCR route on a fake Mistral one (the same fake). */
export function ocrWithLanguageModelsConfig(upstream: FakeUpstream) {
  return {
    providers: [
      { id: 'upstream', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
      { id: 'mistral-cloud', type: 'mistral', base_url: upstream.url, api_key: UPSTREAM_KEY },
    ],
    models: [
      { id: 'svc-large-3-2512', provider: 'upstream', upstream_model: 'writer', capabilities: ['chat'] },
      { id: 'pixtral', provider: 'upstream', upstream_model: 'seer', capabilities: ['vision'] },
      { id: 'mistral-ocr-latest', provider: 'mistral-cloud', capabilities: ['ocr'] },
    ],
  };
}
