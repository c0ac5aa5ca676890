import { expect, it } from 'vitest';
import { json } from '../../support/start-gateway.js';
import { CACHED, chat, cacheConfig, SAMPLING, SEMANTIC } from '../../support/response-cache-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

/** What must never share a cache entry: another key (semantic mode too), or a request that differs in what the model is asked. */
it('never answers a request from an entry made by another key or for a different request', async () => {
  const upstream = await useFakeUpstream();
  const gateway = await useGateway({ config: cacheConfig(upstream) });
  const memberKey = async (name: string): Promise<string> =>
    (await json(await gateway.request('/account/keys', { method: 'POST', json: { name, role: 'member' } }))).key;
  const [alice, bob] = [await memberKey('alice'), await memberKey('bob')];
  const cacheOf = async (body: Record<string, unknown>, key = alice) =>
    (await chat(gateway, body, { key })).headers.get('x-switchyard-cache');

  // Semantic mode compares only within a key's own entries.
  const capital = (content: string) => ({ model: SEMANTIC, temperature: 0, messages: [{ role: 'user', content }] });
  expect(await cacheOf(capital('What is the capital city of France?'))).toBe('miss');
  expect(await cacheOf(capital('What is the capital of France?'), bob)).toBe('miss');
  expect(await cacheOf(capital('What is the capital of France?'))).toBe('hit');

  const base = { model: CACHED, temperature: 0, messages: [{ role: 'user', content: 'name three rivers' }] };
  expect(await cacheOf(base)).toBe('miss');
  expect(await cacheOf(base)).toBe('hit');
  const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };
  const variants: Record<string, unknown>[] = [
    { ...base, model: SAMPLING },
    { ...base, messages: [{ role: 'system', content: 'Answer in French.' }, ...base.messages] },
    { ...base, messages: [{ role: 'user', content: 'name three rivers', name: 'someone-else' }] },
    { ...base, temperature: 0, top_p: 0.5 },
    { ...base, max_tokens: 3 },
    { ...base, stop: ['.'] },
    { ...base, seed: 7 },
    { ...base, n: 2 },
    { ...base, presence_penalty: 1 },
    { ...base, tools: [tool] },
    { ...base, tools: [tool], tool_choice: 'none' },
    { ...base, response_format: { type: 'json_object' } },
    {
      ...base,
      response_format: { type: 'json_schema', json_schema: { name: 'rivers', schema: { type: 'object' } } },
    },
  ];
  for (const variant of variants)
    expect([JSON.stringify(variant), await cacheOf(variant)]).toEqual([JSON.stringify(variant), 'miss']);
  // Each variant stored its own entry: asked again, each is a hit on its own.
  for (const variant of variants) expect(await cacheOf(variant)).toBe('hit');
  expect(await cacheOf(base, bob)).toBe('miss');
});

it('never answers from an entry the route stored before it was pointed at another model', async () => {
  const upstream = await useFakeUpstream();
  const gateway = await useGateway({ config: cacheConfig(upstream) });
  const ask = () =>
    chat(gateway, { model: 'swapped', temperature: 0, messages: [{ role: 'user', content: 'which model are you?' }] });
  const route = (upstreamModel: string) =>
    gateway.request('/settings/routes/swapped', {
      method: 'PUT',
      json: {
        provider: 'upstream',
        upstream_model: upstreamModel,
        capabilities: ['chat'],
        cache: { mode: 'exact', ttl_s: 600 },
      },
    });
  expect((await route('old-model')).status).toBe(200);
  expect((await ask()).headers.get('x-switchyard-cache')).toBe('miss');
  expect((await ask()).headers.get('x-switchyard-cache')).toBe('hit');
  expect((await route('new-model')).status).toBe(200);
  const after = await ask();
  expect(after.headers.get('x-switchyard-cache')).toBe('miss');
  expect((await json(after)).model).toBe('swapped');
  expect((upstream.requests.at(-1)!.body as { model: string }).model).toBe('new-model');
});
