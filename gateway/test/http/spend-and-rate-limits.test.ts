import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { ADMIN_KEY, json, type Json, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY } from '../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../support/use-resources.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

/** Two priced routes on the fake upstream: one priced by completion tokens only, one by prompt tokens only. */
const config = (server: Record<string, unknown> = {}) => ({
  server,
  providers: [{ id: 'upstream', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY }],
  models: [
    {
      id: 'by-output',
      provider: 'upstream',
      capabilities: ['chat'],
      pricing: { input_per_million: 0, output_per_million: 100_000 },
    },
    {
      id: 'by-input',
      provider: 'upstream',
      capabilities: ['chat'],
      pricing: { input_per_million: 100_000, output_per_million: 0 },
    },
  ],
});

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
});

async function createKey(body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  return json(
    await gateway.request('/account/keys', { method: 'POST', json: { role: 'member', name: 'spender', ...body } }),
  );
}

const chat = (key: string, body: Record<string, unknown>) =>
  gateway.request('/v1/chat/completions', { method: 'POST', key, json: body });
const usageOf = async (key: string) =>
  (await json(await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': key } }))).usage;

describe('spend limits under concurrency', () => {
  it('lets through only the requests whose reserved cost fits a key limit; the rest get 402 naming the key limit', async () => {
    gateway = await useGateway({ config: config() });
    // Every answer is two completion tokens at 0.1 each: 0.2 a request, reserved exactly (max_tokens: 2), so a limit of 1 is 5 requests.
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 150 }, path: '/v1/chat/completions' });
    const spender = await createKey({ spend_limit: 1 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        chat(spender.key, {
          model: 'by-output',
          max_tokens: 2,
          messages: [{ role: 'user', content: 'one two three four' }],
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(45);
    const refusal = await json(answers.find((answer) => answer.status === 402)!);
    expect(refusal).toMatchObject({
      object: 'error',
      type: 'insufficient_quota',
      code: 'key_limit_reached',
      param: null,
    });
    expect(refusal.message).toMatch(/key's spending limit of USD 1/);
    expect(upstream.requests).toHaveLength(5);
    const usage = await usageOf(spender.key);
    expect(usage.total_cost).toBeCloseTo(1, 9);
    // The holds are gone once settled: with the limit raised, the key spends again.
    await gateway.request(`/account/keys/${spender.id}`, { method: 'PATCH', json: { spend_limit: 1.2 } });
    upstream.setBehaviour(null);
    expect(
      (await chat(spender.key, { model: 'by-output', max_tokens: 2, messages: [{ role: 'user', content: 'one two' }] }))
        .status,
    ).toBe(200);
  });

  it('keeps an account limit within the limit plus what the reservations under-estimated', async () => {
    gateway = await useGateway({ config: config() });
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 150 }, path: '/v1/chat/completions' });
    // One-letter words: the upstream counts a token a word, the reservation four characters a token, so each request costs more than it reserved.
    const content = Array.from({ length: 20 }, () => 'a').join(' ');
    const estimate = Math.ceil(('user'.length + content.length) / 4) * 0.1;
    const limit = 5.5;
    expect((await gateway.request('/account/balance', { method: 'PATCH', json: { limit } })).status).toBe(200);
    const keys = await Promise.all([createKey({ name: 'a' }), createKey({ name: 'b' })]);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        chat(keys[i % 2].key, { model: 'by-input', max_tokens: 1, messages: [{ role: 'user', content }] }),
      ),
    );
    const passed = answers.filter((answer) => answer.status === 200);
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.length).toBeLessThanOrEqual(Math.floor(limit / estimate + 1e-9));
    const refusals = await Promise.all(answers.filter((answer) => answer.status !== 200).map(json));
    expect(refusals.every((body: Json) => body.code === 'account_limit_reached')).toBe(true);
    const underEstimate = passed.reduce(
      (sum, answer) => sum + Math.max(0, Number(answer.headers.get('x-request-cost')) - estimate),
      0,
    );
    expect(underEstimate).toBeGreaterThan(0);
    const spent = (await usageOf(ADMIN_KEY)).total_cost;
    expect(spent).toBeLessThanOrEqual(limit + underEstimate + 1e-9);
    const { balance } = await json(await gateway.request('/account/me'));
    expect(balance.amount).toBeCloseTo(100 - spent, 6);
  });

  it('refuses a request whose estimate exceeds the balance left, and reserves the default allowance without max_tokens', async () => {
    gateway = await useGateway({ config: { ...config(), account: { default_completion_tokens: 50 } } });
    await gateway.request('/account/balance', { method: 'PATCH', json: { amount: 4 } });
    // No max_tokens: 50 completion tokens at 0.1 = 5 > 4 left.
    const refused = await chat(ADMIN_KEY, { model: 'by-output', messages: [{ role: 'user', content: 'hi' }] });
    expect(refused.status).toBe(402);
    expect(await json(refused)).toMatchObject({
      code: 'balance_exhausted',
      message: expect.stringMatching(/may cost up to USD 5 .*balance is too low/),
    });
    expect(upstream.requests).toHaveLength(0);
    const fits = await chat(ADMIN_KEY, {
      model: 'by-output',
      max_tokens: 30,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(fits.status).toBe(200);
  });
});

describe('rate limit changes', () => {
  it("keeps the minute window when a key's rpm_limit changes", async () => {
    gateway = await useGateway({ config: config() });
    const limited = await createKey({ rpm_limit: 3 });
    for (let i = 0; i < 3; i++) expect((await gateway.request('/models', { key: limited.key })).status).toBe(200);
    expect(
      (await gateway.request(`/account/keys/${limited.id}`, { method: 'PATCH', json: { rpm_limit: 5 } })).status,
    ).toBe(200);
    const after = [];
    for (let i = 0; i < 4; i++) after.push((await gateway.request('/models', { key: limited.key })).status);
    expect(after).toEqual([200, 200, 429, 429]);
    await gateway.request(`/account/keys/${limited.id}`, { method: 'PATCH', json: { rpm_limit: 2 } });
    expect((await gateway.request('/models', { key: limited.key })).status).toBe(429);
  });
});

describe('hostile bodies and the request log', () => {
  it('logs a request whose JSON body is nested far past any stack, with its body cut', async () => {
    gateway = await useGateway({ config: config({ request_log_bodies: true }) });
    const depth = 300_000;
    const body = `{"model":"by-output","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const answer = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'deeply-nested-1' },
      body,
    });
    expect(answer.status).toBeLessThan(500);
    const log = await json(await gateway.request('/console/requests?limit=20'));
    const entry = log.data.find((logged: Json) => logged.id === 'deeply-nested-1');
    expect(entry).toMatchObject({ status: answer.status, path: '/v1/chat/completions' });
    expect(entry.request_body).toMatch(/^\{"model":"by-output".*\[\[\[\[/);
    expect(entry.request_body).toMatch(/cut from \d+ characters/);
    // The gateway is still up.
    expect((await gateway.request('/models')).status).toBe(200);
  });
});
