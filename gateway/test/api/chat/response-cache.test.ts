import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startGateway, type TestGateway } from '../../support/start-gateway.js';
import { BILLED, cacheConfig, CACHED, chat, SAMPLING, SHARED, SHORT } from '../../support/response-cache-config.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';

/** The response cache (issue 38 §2, docs/routing.md "Cache") on a real gateway in front of a fake upstream. */

// One gateway for the file (each test asks its own questions), restarted on its data folder by the last test.
let upstream: FakeUpstream;
let gateway: TestGateway;
let dataDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'switchyard-cache-'));
  gateway = await startGateway({ config: { ...cacheConfig(upstream), server: { request_log_bodies: true } }, dataDir });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upstreamChats = () => upstream.requests.filter((request) => request.path === '/v1/chat/completions').length;

/** Counts the chat requests that reach the upstream from now on. */
function upstreamCalls(): () => number {
  const before = upstreamChats();
  return () => upstreamChats() - before;
}

const question = (text: string, extra: Record<string, unknown> = {}) => ({
  model: CACHED,
  temperature: 0,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

async function memberKey(name: string): Promise<string> {
  const made = await json(await gateway.request('/account/keys', { method: 'POST', json: { role: 'member', name } }));
  return made.key as string;
}

describe('exact cache', () => {
  it('answers a repeated plain request from the cache, byte for byte, free, marked in headers, usage and the log', async () => {
    const calls = upstreamCalls();
    const first = await chat(gateway, question('the first question'));
    expect(first.headers.get('x-switchyard-cache')).toBe('miss');
    expect(first.headers.get('age')).toBeNull();
    const firstText = await first.text();
    expect(Number(first.headers.get('x-request-cost'))).toBeGreaterThan(0);

    // Field order and the client's `user` and `stream_options` are not part of the key.
    const again = await chat(gateway, {
      messages: question('the first question').messages,
      temperature: 0,
      model: CACHED,
      user: 'someone',
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-switchyard-cache')).toBe('hit');
    expect(again.headers.get('age')).toMatch(/^\d+$/);
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get('x-request-cost')).toBe('0');
    expect(calls()).toBe(1);

    const logged = await json(await gateway.request(`/console/requests/${again.headers.get('x-request-id')}`));
    expect(logged.cache).toMatchObject({ status: 'hit' });
    expect(logged).toMatchObject({ model: CACHED, cost: 0 });
    const missLogged = await json(await gateway.request(`/console/requests/${first.headers.get('x-request-id')}`));
    expect(missLogged.cache).toEqual({ status: 'miss' });

    // Another question, or other sampling parameters, are other entries.
    expect((await chat(gateway, question('another question'))).headers.get('x-switchyard-cache')).toBe('miss');
    expect(
      (await chat(gateway, question('the first question', { max_tokens: 5 }))).headers.get('x-switchyard-cache'),
    ).toBe('miss');
    // A route without `cache` says nothing about it.
    const plain = await chat(gateway, question('the first question', { model: 'uncached' }));
    expect(plain.headers.get('x-switchyard-cache')).toBeNull();
  });

  it('replays a streamed answer as the same stream; plain and streamed requests keep their own entries', async () => {
    const calls = upstreamCalls();
    const body = question('stream this', { stream: true, stream_options: { include_usage: true } });
    const first = await chat(gateway, body);
    expect(first.headers.get('x-switchyard-cache')).toBe('miss');
    const firstText = await first.text();
    expect(firstText).toContain('data: [DONE]');
    const again = await chat(gateway, body);
    expect(again.headers.get('x-switchyard-cache')).toBe('hit');
    expect(again.headers.get('content-type')).toContain('text/event-stream');
    const againText = await again.text();
    expect(againText).toBe(firstText);
    // Replayed whole, in one body, and logged as a stream with its first token's time.
    expect(again.headers.get('content-length')).toBe(String(Buffer.byteLength(againText)));
    const logged = await json(await gateway.request(`/console/requests/${again.headers.get('x-request-id')}`));
    expect(logged).toMatchObject({ cache: { status: 'hit' }, response_body: '[stream]', cost: 0 });
    expect(logged.ttft_ms).toBeGreaterThanOrEqual(0);
    expect(calls()).toBe(1);

    const whole = await chat(gateway, question('stream this'));
    expect(whole.headers.get('x-switchyard-cache')).toBe('miss');
    expect((await json(whole)).object).toBe('chat.completion');
    expect(calls()).toBe(2);
  });

  it('keeps each key its own entries, and shares them across the account only where the route says so', async () => {
    const calls = upstreamCalls();
    const [alice, bob] = [await memberKey('alice'), await memberKey('bob')];
    const body = question('a private question');
    expect((await chat(gateway, body, { key: alice })).headers.get('x-switchyard-cache')).toBe('miss');
    const bobs = await chat(gateway, body, { key: bob });
    expect(bobs.headers.get('x-switchyard-cache')).toBe('miss');
    expect((await chat(gateway, body, { key: alice })).headers.get('x-switchyard-cache')).toBe('hit');
    expect((await chat(gateway, body, { key: bob })).headers.get('x-switchyard-cache')).toBe('hit');
    expect(calls()).toBe(2);

    const shared = { ...body, model: SHARED };
    expect((await chat(gateway, shared, { key: alice })).headers.get('x-switchyard-cache')).toBe('miss');
    expect((await chat(gateway, shared, { key: bob })).headers.get('x-switchyard-cache')).toBe('hit');
  });

  it("runs a hit through the asking key's output guardrails: a replayed stream is cut with an error frame", async () => {
    const calls = upstreamCalls();
    const guarded = await json(
      await gateway.request('/account/keys', {
        method: 'POST',
        json: {
          role: 'member',
          name: 'guarded',
          guardrails: { output: [{ name: 'codename', type: 'regex', patterns: ['nightingale'], action: 'block' }] },
        },
      }),
    );
    const body = { ...question('tell me about nightingale', { stream: true }), model: SHARED };
    const first = await chat(gateway, body);
    expect(first.headers.get('x-switchyard-cache')).toBe('miss');
    expect(await first.text()).toContain('nightingale');
    const hit = await chat(gateway, body, { key: guarded.key });
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-switchyard-cache')).toBe('hit');
    const text = await hit.text();
    expect(text).not.toContain('nightingale');
    expect(text).toContain('"code":"guardrail_blocked"');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(calls()).toBe(1);
  });

  it('still asks a hit for a valid key and counts it against the key rate limit', async () => {
    const calls = upstreamCalls();
    const made = await json(
      await gateway.request('/account/keys', {
        method: 'POST',
        json: { role: 'member', name: 'limited', rpm_limit: 2 },
      }),
    );
    const body = question('a limited question');
    expect((await chat(gateway, body, { key: made.key })).headers.get('x-switchyard-cache')).toBe('miss');
    expect((await chat(gateway, body, { key: made.key })).headers.get('x-switchyard-cache')).toBe('hit');
    const third = await chat(gateway, body, { key: made.key });
    expect(third.status).toBe(429);
    expect((await chat(gateway, body, { key: 'sk-sy-not-a-key-0123456789abcdef' })).status).toBe(401);
    expect(calls()).toBe(1);
  });

  it("sends a replayed request to the model, neither reading nor replacing the route's cache", async () => {
    const calls = upstreamCalls();
    const body = question('replay me');
    const first = await chat(gateway, body);
    const firstText = await first.text();
    const replayed = await gateway.request(`/console/requests/${first.headers.get('x-request-id')}/replay`, {
      method: 'POST',
      json: {},
    });
    expect(replayed.status).toBe(200);
    expect(calls()).toBe(2);
    const hit = await chat(gateway, body);
    expect(hit.headers.get('x-switchyard-cache')).toBe('hit');
    expect(await hit.text()).toBe(firstText);
  });

  it('bills a hit the stored answer at the route prices where the route says bill_hits', async () => {
    const body = question('a billed question', { model: BILLED });
    const first = await chat(gateway, body);
    const again = await chat(gateway, body);
    expect(again.headers.get('x-switchyard-cache')).toBe('hit');
    expect(Number(again.headers.get('x-request-cost'))).toBeGreaterThan(0);
    expect(again.headers.get('x-request-cost')).toBe(first.headers.get('x-request-cost'));
  });

  it('never caches a sampling request unless the route allows it', async () => {
    const calls = upstreamCalls();
    for (const extra of [{ temperature: 0.7 }, { temperature: undefined }]) {
      const body = { ...question('roll the dice'), ...extra };
      const first = await chat(gateway, body);
      expect(first.headers.get('x-switchyard-cache')).toBe('bypass');
      expect((await chat(gateway, body)).headers.get('x-switchyard-cache')).toBe('bypass');
    }
    expect(calls()).toBe(4);
    const log = await json(await gateway.request(`/console/requests?limit=1`));
    expect(log.data[0].cache).toEqual({ status: 'bypass', reason: 'sampling' });

    const allowed = { ...question('roll the dice'), model: SAMPLING, temperature: 0.7 };
    expect((await chat(gateway, allowed)).headers.get('x-switchyard-cache')).toBe('miss');
    expect((await chat(gateway, allowed)).headers.get('x-switchyard-cache')).toBe('hit');
  });

  it('honours Cache-Control: no-cache writes a fresh answer without reading, no-store neither reads nor writes', async () => {
    const calls = upstreamCalls();
    const body = question('fresh please');
    expect(
      (await chat(gateway, body, { headers: { 'cache-control': 'no-store' } })).headers.get('x-switchyard-cache'),
    ).toBe('bypass');
    expect((await chat(gateway, body)).headers.get('x-switchyard-cache')).toBe('miss');
    const fresh = await chat(gateway, body, { headers: { 'cache-control': 'no-cache' } });
    expect(fresh.headers.get('x-switchyard-cache')).toBe('miss');
    const freshText = await fresh.text();
    const hit = await chat(gateway, body);
    expect(hit.headers.get('x-switchyard-cache')).toBe('hit');
    // The entry is the no-cache request's answer, which replaced the older one.
    expect(await hit.text()).toBe(freshText);
    expect(
      (await chat(gateway, body, { headers: { 'cache-control': 'no-store' } })).headers.get('x-switchyard-cache'),
    ).toBe('bypass');
    expect(calls()).toBe(4);
  });

  it('reads Cache-Control as HTTP does: any case, several directives, max-age=N reads only an answer that young', async () => {
    const calls = upstreamCalls();
    const body = question('directives');
    expect(
      (await chat(gateway, body, { headers: { 'cache-control': 'private, No-Store' } })).headers.get(
        'x-switchyard-cache',
      ),
    ).toBe('bypass');
    expect((await chat(gateway, body)).headers.get('x-switchyard-cache')).toBe('miss');
    expect(calls()).toBe(2);
    const reload = await chat(gateway, body, { headers: { 'cache-control': 'Max-Age=0, private' } });
    expect(reload.headers.get('x-switchyard-cache')).toBe('miss');
    expect(calls()).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    // Two seconds old: a client that takes answers up to 60 s old gets it, one that takes 1 s does not.
    const young = await chat(gateway, body, { headers: { 'cache-control': 'max-age=60' } });
    expect(young.headers.get('x-switchyard-cache')).toBe('hit');
    expect(Number(young.headers.get('age'))).toBeGreaterThanOrEqual(2);
    const tooOld = await chat(gateway, body, { headers: { 'cache-control': 'max-age=1' } });
    expect(tooOld.headers.get('x-switchyard-cache')).toBe('miss');
    expect(calls()).toBe(4);
    // The fresh answer replaced the old one.
    const after = await chat(gateway, body, { headers: { 'cache-control': 'max-age=1' } });
    expect(after.headers.get('x-switchyard-cache')).toBe('hit');
    expect(after.headers.get('age')).toBe('0');
  });

  it('says what the cache did on an answer that failed too, and keeps nothing of it', async () => {
    const calls = upstreamCalls();
    const body = question('this one fails');
    upstream.setBehaviour({ failure: { type: 'status', status: 500 }, path: '/v1/chat/completions' });
    try {
      const failed = await chat(gateway, body);
      expect(failed.status).toBe(502);
      expect(failed.headers.get('x-switchyard-cache')).toBe('miss');
      const logged = await json(await gateway.request(`/console/requests/${failed.headers.get('x-request-id')}`));
      expect(logged.cache).toEqual({ status: 'miss' });
    } finally {
      upstream.setBehaviour(null);
    }
    const again = await chat(gateway, body);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-switchyard-cache')).toBe('miss');
    expect(calls()).toBe(4);
  });

  it('forgets an entry after its ttl', async () => {
    const calls = upstreamCalls();
    const body = question('short memory', { model: SHORT });
    expect((await chat(gateway, body)).headers.get('x-switchyard-cache')).toBe('miss');
    expect((await chat(gateway, body)).headers.get('x-switchyard-cache')).toBe('hit');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await chat(gateway, body)).headers.get('x-switchyard-cache')).toBe('miss');
    expect(calls()).toBe(2);
  });

  it('gives a hit to the official openai SDK, with its headers', async () => {
    const calls = upstreamCalls();
    const client = new OpenAI({
      baseURL: `${gateway.url}/v1`,
      apiKey: 'sk-sy-test-admin-key-0123456789abcdef',
      maxRetries: 0,
    });
    const ask = () =>
      client.chat.completions
        .create({ model: CACHED, temperature: 0, messages: [{ role: 'user', content: 'hello from the SDK' }] })
        .withResponse();
    const first = await ask();
    const second = await ask();
    expect(first.response.headers.get('x-switchyard-cache')).toBe('miss');
    expect(second.response.headers.get('x-switchyard-cache')).toBe('hit');
    expect(second.data).toEqual(first.data);
    expect(second.data.choices[0]!.message.content).toContain('hello from the SDK');
    expect(calls()).toBe(1);
  });
});

it('keeps the SQLite cache over a restart', async () => {
  const calls = upstreamCalls();
  const body = question('remember me');
  const firstText = await (await chat(gateway, body)).text();
  await gateway.stop();
  gateway = await startGateway({ config: cacheConfig(upstream), dataDir });
  const again = await chat(gateway, body);
  expect(again.headers.get('x-switchyard-cache')).toBe('hit');
  expect(await again.text()).toBe(firstText);
  expect(calls()).toBe(1);
});
