import { afterAll, beforeAll } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';

/**
 * The client tests' config: the default language model on a fake OpenAI-compatible upstream (so the
 * Responses API is translated to chat), and `native-model` on the same fake configured with
 * `responses_api: true` (so the Responses API passes through), a fine-tuned route, a Mistral-type
 * route with fill in the middle, a transcription route and an image generation route.
 */
export function clientsConfig(upstream: FakeUpstream) {
  const base = upstreamConfig(upstream);
  return {
    providers: [
      ...base.providers,
      { id: 'native', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, responses_api: true },
      { id: 'codestral', type: 'mistral', base_url: upstream.url, api_key: UPSTREAM_KEY },
    ],
    models: [
      ...base.models,
      {
        id: 'codestral-model',
        provider: 'codestral',
        upstream_model: 'codestral-upstream',
        capabilities: ['completions'],
      },
      { id: 'whisper-model', provider: 'upstream', upstream_model: 'fake-whisper', capabilities: ['transcription'] },
      { id: 'image-model', provider: 'upstream', upstream_model: 'fake-image', capabilities: ['image_generation'] },
      {
        id: 'ft:svc-large-3-2512:acme:7e77',
        provider: 'upstream',
        upstream_model: 'my-model-ft',
        capabilities: ['chat'],
      },
      {
        id: 'native-model',
        provider: 'native',
        upstream_model: 'native-upstream',
        capabilities: ['chat'],
        pricing: { input_per_million: 1, output_per_million: 1 },
      },
    ],
  };
}

/** The fake upstream and the gateway routed to it with `clientsConfig`, set up once per test file and closed after it. */
export interface ClientsStack {
  upstream: FakeUpstream;
  gateway: TestGateway;
}

export function useClientsStack(): ClientsStack {
  const stack = {} as ClientsStack;
  beforeAll(async () => {
    stack.upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    stack.gateway = await startGateway({ config: clientsConfig(stack.upstream) });
  });
  afterAll(async () => {
    await stack.gateway?.close();
    await stack.upstream?.close();
  });
  return stack;
}
