import { describe, expect, it } from 'vitest';
import type { ModelRoute } from '../../../src/core/routing/model-registry.js';
import { estimateRequestCost } from '../../../src/core/billing/pricing.js';

const route = (pricing?: ModelRoute['pricing']) => ({ pricing }) as ModelRoute;
const perToken = route({ input_per_million: 1_000_000, output_per_million: 2_000_000 });

describe('estimateRequestCost', () => {
  it('prices the prompt at four characters a token plus max_tokens, max_completion_tokens or the default allowance', () => {
    const messages = [{ role: 'user', content: 'x'.repeat(36) }]; // 'user' + 36 characters: 10 tokens
    expect(estimateRequestCost(perToken, { model: 'some-long-model-name', messages, max_tokens: 5 }, 1024)).toBe(
      10 + 2 * 5,
    );
    expect(estimateRequestCost(perToken, { model: 'm', messages, max_completion_tokens: 7 }, 1024)).toBe(10 + 2 * 7);
    expect(estimateRequestCost(perToken, { model: 'm', messages }, 100)).toBe(10 + 2 * 100);
    // Embeddings generate no completion.
    expect(estimateRequestCost(perToken, { model: 'm', input: 'x'.repeat(40) }, 100)).toBe(10);
  });

  it('adds the per-request price, skips inline data, and is 0 for a free route', () => {
    const image = route({ input_per_million: 0, output_per_million: 0, per_request: 0.04 });
    expect(
      estimateRequestCost(
        image,
        { model: 'm', prompt: 'a cat', image: `data:image/png;base64,${'A'.repeat(10_000)}` },
        10,
      ),
    ).toBe(0.04);
    expect(estimateRequestCost(route(), { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 1024)).toBe(0);
  });

  it('walks a body nested far deeper than the call stack allows', () => {
    let nested: unknown = 'x'.repeat(400);
    for (let i = 0; i < 200_000; i++) nested = [nested];
    expect(estimateRequestCost(perToken, { model: 'm', input: nested }, 0)).toBe(100);
  });
});
