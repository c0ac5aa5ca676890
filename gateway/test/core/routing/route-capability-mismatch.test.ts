import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderFactory } from '../../../src/providers/contracts/provider-instance.js';
import { startGateway, type TestGateway } from '../../support/start-gateway.js';

let gateway: TestGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/** A provider that only embeds, whatever the config file claims its routes can do. */
const embedOnly: ProviderFactory = (context) => ({
  id: context.id,
  type: 'embed-only',
  capabilities: {
    embeddings: { embed: async ({ input }) => ({ vectors: input.map(() => [1, 0]), prompt_tokens: input.length }) },
  },
  status: () => ({ state: 'ready' }),
  close: async () => undefined,
});

describe('a route whose provider lacks the capability the config gives it', () => {
  it('answers 400 capability_not_supported naming the model, not a 500', async () => {
    gateway = await startGateway({
      extras: { providerFactories: { 'embed-only': embedOnly } },
      config: {
        providers: [{ id: 'embedder', type: 'embed-only' }],
        models: [{ id: 'claims-chat', provider: 'embedder', capabilities: ['chat', 'embeddings'] }],
      },
    });
    const chat = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'claims-chat', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(400);
    expect(await chat.json()).toMatchObject({
      code: 'capability_not_supported',
      param: 'model',
      message: expect.stringContaining('claims-chat'),
    });
    const embedded = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { model: 'claims-chat', input: 'hi' },
    });
    expect(embedded.status).toBe(200);
  });
});
