import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { drawTextImage } from '../support/draw-text.js';
import { everythingStdio } from '../support/mcp-servers.js';
import { json, type Json, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY } from '../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../support/use-resources.js';

/**
 * A key's spending limit holds on the paths where one request makes more than the one call its body
 * names: several choices, several prompts, a pricier fallback, the steps of an MCP tool loop.
 */
let upstream: FakeUpstream;
let gateway: TestGateway;

/** 0.1 a completion token; the fallback of `cheap` costs ten times more. */
const config = (server: Record<string, unknown> = {}) => ({
  server,
  providers: [
    { id: 'upstream', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
    // The fallback's own provider, so the failing route's breaker does not pause it.
    { id: 'backup', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
  ],
  models: [
    {
      id: 'by-output',
      provider: 'upstream',
      capabilities: ['chat', 'completions'],
      pricing: { input_per_million: 0, output_per_million: 100_000 },
    },
    {
      id: 'cheap',
      provider: 'upstream',
      upstream_model: 'cheap-upstream',
      capabilities: ['chat'],
      pricing: { input_per_million: 0, output_per_million: 10_000 },
      fallbacks: ['pricey'],
      max_retries: 0,
    },
    {
      id: 'pricey',
      provider: 'backup',
      upstream_model: 'pricey-upstream',
      capabilities: ['chat'],
      pricing: { input_per_million: 0, output_per_million: 100_000 },
    },
    {
      id: 'per-call',
      provider: 'upstream',
      capabilities: ['chat'],
      pricing: { input_per_million: 0, output_per_million: 0, per_request: 0.3 },
    },
  ],
  mcp_servers: [{ ...everythingStdio('everything'), allowed_keys: 'all' }],
});

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY, toolLoop: true });
});

async function limitedKey(limit: number): Promise<{ id: string; key: string }> {
  return json(
    await gateway.request('/account/keys', {
      method: 'POST',
      json: { role: 'member', name: 'spender', spend_limit: limit },
    }),
  );
}

const spentBy = async (key: string): Promise<number> =>
  (await json(await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': key } }))).usage.total_cost;

/** `count` requests at once, each answered slowly so that all are in flight together. */
async function together(count: number, send: () => Promise<Response>): Promise<number[]> {
  upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 150 } });
  const answers = await Promise.all(Array.from({ length: count }, send));
  upstream.setBehaviour(null);
  return answers.map((answer) => answer.status);
}

describe('a key limit on requests that make more than one answer', () => {
  it('holds n > 1 choices to the limit: each choice may use max_tokens', async () => {
    gateway = await useGateway({ config: config() });
    const spender = await limitedKey(1);
    // Five choices of two tokens at 0.1: 1.0 a request, so one fits the limit of 1.
    const statuses = await together(10, () =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        key: spender.key,
        json: { model: 'by-output', n: 5, max_tokens: 2, messages: [{ role: 'user', content: 'one two three' }] },
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 402)).toHaveLength(9);
    expect(await spentBy(spender.key)).toBeCloseTo(1, 9);
  });

  it('holds a completion of several prompts to the limit: each prompt may use max_tokens', async () => {
    gateway = await useGateway({ config: config() });
    const spender = await limitedKey(1);
    // Three prompts of two tokens at 0.1: 0.6 a request, so one fits the limit of 1.
    const statuses = await together(10, () =>
      gateway.request('/v1/completions', {
        method: 'POST',
        key: spender.key,
        json: { model: 'by-output', max_tokens: 2, prompt: ['one two three', 'four five six', 'seven eight nine'] },
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(await spentBy(spender.key)).toBeLessThanOrEqual(1 + 1e-9);
  });

  it('holds a request to the price of the dearest route it may fall back to', async () => {
    gateway = await useGateway({ config: config() });
    const spender = await limitedKey(1);
    upstream.setBehaviour([
      { failure: { type: 'status', status: 500 }, model: 'cheap-upstream' },
      { failure: { type: 'slow_chunks', delayMs: 150 }, model: 'pricey-upstream' },
    ]);
    // The fallback answers two tokens at 0.1: 0.2 a request, so five fit the limit of 1.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        gateway.request('/v1/chat/completions', {
          method: 'POST',
          key: spender.key,
          json: { model: 'cheap', max_tokens: 2, messages: [{ role: 'user', content: 'one two three' }] },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(await spentBy(spender.key)).toBeCloseTo(1, 9);
  });
});

describe('a key limit on the steps of an MCP tool loop', () => {
  const loop = (key: string, stream: boolean) =>
    gateway.request('/v1/responses', {
      method: 'POST',
      key,
      json: {
        model: 'per-call',
        input: 'please echo and repeat {"message": "again"}',
        tools: [{ type: 'mcp', server_label: 'everything', require_approval: 'never', allowed_tools: ['echo'] }],
        stream,
      },
    });

  it('stops a whole response when its next model call no longer fits, billing the calls made', async () => {
    gateway = await useGateway({ config: config({ tool_loop_max_steps: 8 }) });
    const spender = await limitedKey(1);
    // Each model call costs 0.3: three fit the limit of 1, the eight the loop would make do not.
    const answer = await loop(spender.key, false);
    expect(answer.status).toBe(402);
    expect(await json(answer)).toMatchObject({ object: 'error', code: 'key_limit_reached' });
    expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(3);
    expect(await spentBy(spender.key)).toBeCloseTo(0.9, 9);
  });

  it('ends a streamed response with an error frame when its next model call no longer fits', async () => {
    gateway = await useGateway({ config: config({ tool_loop_max_steps: 8 }) });
    const spender = await limitedKey(1);
    const answer = await loop(spender.key, true);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toMatch(/key_limit_reached/);
    expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(3);
    await expect.poll(() => spentBy(spender.key)).toBeCloseTo(0.9, 9);
    const refused: Json = await json(await loop(spender.key, false));
    expect(refused.code).toBe('key_limit_reached');
  });
});

describe('a key limit on a cache hit', () => {
  it('refuses a free hit with 402 once the key has spent its limit, and logs the hits it served', async () => {
    const base = config();
    gateway = await useGateway({
      config: {
        ...base,
        models: base.models.map((model) =>
          model.id === 'by-output' ? { ...model, cache: { mode: 'exact', ttl_s: 600 } } : model,
        ),
      },
    });
    const spender = await limitedKey(0.4);
    const ask = (content: string) =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        key: spender.key,
        json: { model: 'by-output', temperature: 0, max_tokens: 2, messages: [{ role: 'user', content }] },
      });
    expect((await ask('one two')).headers.get('x-switchyard-cache')).toBe('miss');
    const hit = await ask('one two');
    expect(hit.headers.get('x-switchyard-cache')).toBe('hit');
    expect(hit.headers.get('x-request-cost')).toBe('0');
    // A second priced answer spends the rest of the limit: the stored answer is then refused too.
    expect((await ask('three four')).status).toBe(200);
    const refused = await ask('one two');
    expect(refused.status).toBe(402);
    expect(await json(refused)).toMatchObject({ code: 'key_limit_reached' });
    expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);
    const usage = await json(
      await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': spender.key } }),
    );
    expect(usage.usage.total_cost).toBeCloseTo(0.4, 9);
  });
});

describe('a key limit on the chat turn OCR asks for', () => {
  it('leaves a document annotation to the rule-based extractor when the key cannot pay for the chat turn', async () => {
    gateway = await useGateway({
      config: {
        providers: [
          { id: 'upstream', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
          { id: 'mistral-cloud', type: 'mistral', base_url: upstream.url, api_key: UPSTREAM_KEY },
        ],
        models: [
          {
            id: 'svc-large-3-2512',
            provider: 'upstream',
            capabilities: ['chat'],
            pricing: { input_per_million: 100_000, output_per_million: 100_000 },
          },
          { id: 'mistral-ocr-latest', provider: 'mistral-cloud', capabilities: ['ocr'] },
        ],
      },
    });
    // The OCR is free; filling the schema with the chat route would cost far more than 0.01.
    const spender = await limitedKey(0.01);
    const page = await drawTextImage([{ text: 'Invoice 42', x: 20, y: 60, size: 32 }], { width: 320, height: 100 });
    const answer = await gateway.request('/v1/ocr', {
      method: 'POST',
      key: spender.key,
      json: {
        model: 'mistral-ocr-latest',
        document: { type: 'image_url', image_url: `data:image/png;base64,${page.image.toString('base64')}` },
        document_annotation_format: {
          type: 'json_schema',
          json_schema: { name: 'invoice', schema: { type: 'object', properties: { title: { type: 'string' } } } },
        },
      },
    });
    expect(answer.status).toBe(200);
    expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(0);
    expect(await spentBy(spender.key)).toBeLessThanOrEqual(0.01);
  });
});

describe("a key limit on a guardrail's moderation calls", () => {
  it('refuses a request whose moderation check the key cannot pay for, before the check runs', async () => {
    gateway = await useGateway({
      config: {
        providers: [{ id: 'upstream', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY }],
        models: [
          {
            id: 'moderated',
            provider: 'upstream',
            capabilities: ['chat'],
            guardrails: { input: [{ name: 'safety', type: 'moderation', model: 'priced-moderation', action: 'flag' }] },
          },
          {
            id: 'priced-moderation',
            provider: 'upstream',
            upstream_model: 'omni',
            capabilities: ['moderation'],
            pricing: { input_per_million: 100_000, output_per_million: 0 },
          },
        ],
      },
    });
    // The chat route is free; checking its input costs 0.1 a token, far more than the 0.01 left.
    const spender = await limitedKey(0.01);
    const answer = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      key: spender.key,
      json: { model: 'moderated', messages: [{ role: 'user', content: 'a perfectly ordinary question about trains' }] },
    });
    expect(answer.status).toBe(402);
    expect(await json(answer)).toMatchObject({ code: 'key_limit_reached' });
    expect(upstream.requests).toHaveLength(0);
    expect(await spentBy(spender.key)).toBe(0);
  });
});
