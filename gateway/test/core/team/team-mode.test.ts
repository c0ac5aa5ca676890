import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { startTeamOfGateways, TEST_REDIS_URL, type TeamOfGateways } from '../../support/team-of-gateways.js';
import { startTcpRelay, type TcpRelay } from '../../support/tcp-relay.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';

let upstream: FakeUpstream;
let team: TeamOfGateways | undefined;
let relay: TcpRelay | undefined;

const FINE_TUNED = 'ft:by-output:acme:7e77';

const config = (breaker?: Record<string, number>) => ({
  providers: [
    { id: 'upstream', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, ...(breaker ? { breaker } : {}) },
  ],
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
    { id: 'free', provider: 'upstream', capabilities: ['chat'], max_retries: 0 },
    { id: FINE_TUNED, provider: 'upstream', upstream_model: 'ft', capabilities: ['chat'] },
  ],
});

beforeEach(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
});
afterEach(async () => {
  await team?.close();
  team = undefined;
  await relay?.close();
  relay = undefined;
  await upstream.close();
});

async function createKey(on: TestGateway, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const created = await on.request('/account/keys', {
    method: 'POST',
    json: { role: 'member', name: 'team', ...body },
  });
  expect(created.status).toBe(201);
  return json(created);
}

const chat = (on: TestGateway, key: string | undefined, body: Record<string, unknown>) =>
  on.request('/v1/chat/completions', { method: 'POST', ...(key ? { key } : {}), json: body });

/**
 * Reads until `done` says yes, and returns the last value read. Changes reach the other instances over
 * Redis pub/sub: the test waits for the state, and the bound (10 s) is only there to end a test whose
 * change never arrives, far above what a loaded machine takes (a pass returns as soon as it arrives).
 */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, withinMs = 10_000): Promise<T> {
  const end = performance.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value) || performance.now() >= end) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Asks until `status` comes back (see `until`); returns the last status seen. */
const statusOnceApplied = (ask: () => Promise<Response>, status: number): Promise<number> =>
  until(
    async () => (await ask()).status,
    (seen) => seen === status,
  );

/** The state of the provider's breaker as `on` reports it in /status, once it is `state` (see `until`). */
const breakerOnceIn = (on: TestGateway, state: string): Promise<string> =>
  until(
    async () =>
      (await json(await on.request('/status'))).providers.find((provider: Json) => provider.id === 'upstream').breaker
        .state as string,
    (seen) => seen === state,
  );

describe('team mode: instances sharing one Redis and one data folder', () => {
  it('lets exactly rpm_limit of 200 concurrent requests spread over three instances through', async () => {
    team = await startTeamOfGateways(3, { config: config() });
    const [a] = team.instances;
    const limited = await createKey(a, { rpm_limit: 60 });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => team!.instances[i % 3].request('/models', { key: limited.key })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(140);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await json(refused)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
  });

  it('answers a limited key 429 on a billable route before its body is read or its spend reserved, though the reservation goes out beside the verdict', async () => {
    team = await startTeamOfGateways(1, { config: config() });
    const [a] = team.instances;
    const limited = await createKey(a, { rpm_limit: 1, spend_limit: 1 });
    const ok = await chat(a, limited.key, {
      model: 'by-output',
      max_tokens: 2,
      messages: [{ role: 'user', content: 'one' }],
    });
    expect(ok.status).toBe(200);
    const refusals = [
      await a.request('/v1/chat/completions', {
        method: 'POST',
        key: limited.key,
        headers: { 'content-type': 'application/json' },
        body: '{"model": ',
      }),
      await chat(a, limited.key, { model: 'by-output', messages: 'not a list' }),
      await chat(a, limited.key, { model: 'by-output', max_tokens: 2, messages: [{ role: 'user', content: 'one' }] }),
      await chat(a, limited.key, {
        model: 'by-output',
        max_tokens: 1_000_000,
        messages: [{ role: 'user', content: 'one' }],
      }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await json(refused)).code).toBe('rate_limit_exceeded');
    }
    // The refused requests' holds are gone: a fresh key under the same account still fits in the balance.
    const other = await createKey(a, { spend_limit: 1 });
    expect(
      (await chat(a, other.key, { model: 'by-output', max_tokens: 2, messages: [{ role: 'user', content: 'one' }] }))
        .status,
    ).toBe(200);
  });

  it('holds a key spend limit across instances: only the requests whose reservations fit get through', async () => {
    team = await startTeamOfGateways(2, { config: config() });
    const [a, b] = team.instances;
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 150 }, path: '/v1/chat/completions' });
    // Two completion tokens at 0.1 each, reserved exactly (max_tokens: 2): a limit of 1 is five requests, wherever they land.
    const spender = await createKey(a, { spend_limit: 1 });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        chat(i % 2 ? a : b, spender.key, {
          model: 'by-output',
          max_tokens: 2,
          messages: [{ role: 'user', content: 'one two three four' }],
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(35);
    expect(upstream.requests).toHaveLength(5);
    // Settled spend counts on the other instance too.
    const refusedOnB = await chat(b, spender.key, {
      model: 'by-output',
      max_tokens: 2,
      messages: [{ role: 'user', content: 'one two' }],
    });
    expect(refusedOnB.status).toBe(402);
    expect((await json(refusedOnB)).code).toBe('key_limit_reached');
  });

  it('keeps the account limit across instances within the limit plus what the reservations under-estimated', async () => {
    team = await startTeamOfGateways(2, { config: config() });
    const [a, b] = team.instances;
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 150 }, path: '/v1/chat/completions' });
    // One-letter words: a token a word upstream, four characters a token in the estimate, so each request costs more than it reserved.
    const content = Array.from({ length: 20 }, () => 'a').join(' ');
    const estimate = Math.ceil(('user'.length + content.length) / 4) * 0.1;
    const limit = 5.5;
    expect((await a.request('/account/balance', { method: 'PATCH', json: { limit } })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        chat(i % 2 ? a : b, undefined, { model: 'by-input', max_tokens: 1, messages: [{ role: 'user', content }] }),
      ),
    );
    const passed = answers.filter((answer) => answer.status === 200);
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.length).toBeLessThanOrEqual(Math.floor(limit / estimate + 1e-9));
    const refusals = await Promise.all(answers.filter((answer) => answer.status !== 200).map(json));
    expect(refusals.every((body: Json) => body.code === 'account_limit_reached')).toBe(true);
    const spent = passed.reduce((sum, answer) => sum + Number(answer.headers.get('x-request-cost')), 0);
    const underEstimate = passed.reduce(
      (sum, answer) => sum + Math.max(0, Number(answer.headers.get('x-request-cost')) - estimate),
      0,
    );
    expect(spent).toBeLessThanOrEqual(limit + underEstimate + 1e-9);
  });

  it('refuses a key revoked on one instance on the others once the change is announced, and applies a changed rpm_limit there', async () => {
    team = await startTeamOfGateways(3, { config: config() });
    const [a, b, c] = team.instances;
    const member = await createKey(a, { rpm_limit: 100 });
    // Created on A, served at once by B and C (which now hold it in their lookup caches).
    expect((await b.request('/models', { key: member.key })).status).toBe(200);
    expect((await c.request('/models', { key: member.key })).status).toBe(200);

    expect((await a.request(`/account/keys/${member.id}`, { method: 'PATCH', json: { rpm_limit: 2 } })).status).toBe(
      200,
    );
    // Two requests made this minute already: the new limit of 2 refuses the next one on B.
    expect(await statusOnceApplied(() => b.request('/models', { key: member.key }), 429)).toBe(429);

    expect((await a.request(`/account/keys/${member.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await statusOnceApplied(() => b.request('/models', { key: member.key }), 401)).toBe(401);
    expect(await statusOnceApplied(() => c.request('/models', { key: member.key }), 401)).toBe(401);
  });

  it('applies a model archived on one instance on the others', async () => {
    team = await startTeamOfGateways(2, { config: config() });
    const [a, b] = team.instances;
    const use = () => chat(b, undefined, { model: FINE_TUNED, messages: [{ role: 'user', content: 'x' }] });
    expect((await use()).status).toBe(200);
    expect((await a.request(`/v1/models/${FINE_TUNED}/archive`, { method: 'POST' })).status).toBe(200);
    expect(await statusOnceApplied(use, 404)).toBe(404);
    expect((await json(await use())).code).toBe('model_archived');
  });

  it('applies a provider, a route and a server setting changed in the console on one instance on the others once the change is announced', async () => {
    team = await startTeamOfGateways(2, { config: config() });
    const [a, b] = team.instances;
    const use = () => chat(b, undefined, { model: 'team-added', messages: [{ role: 'user', content: 'x' }] });
    expect((await use()).status).toBe(404);
    expect(
      (
        await a.request('/settings/providers', {
          method: 'POST',
          json: { id: 'second', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await a.request('/settings/routes/team-added', {
          method: 'PUT',
          json: { provider: 'second', upstream_model: 'via-second', capabilities: ['chat'] },
        })
      ).status,
    ).toBe(200);
    expect(await statusOnceApplied(use, 200)).toBe(200);
    expect(upstream.requests.at(-1)?.body).toMatchObject({ model: 'via-second' });

    const origin = 'http://team-tool.test';
    const allowed = async () =>
      (await b.request('/models', { headers: { origin } })).headers.get('access-control-allow-origin');
    expect(await allowed()).toBeNull();
    expect((await a.request('/settings/server', { method: 'PATCH', json: { cors_origins: [origin] } })).status).toBe(
      200,
    );
    expect(await until(allowed, (seen) => seen === origin)).toBe(origin);
  });

  it('applies an MCP server added and removed in the console on one instance on the others', async () => {
    team = await startTeamOfGateways(2, { config: config() });
    const [a, b] = team.instances;
    const listed = async () =>
      ((await json(await b.request('/settings/mcp-servers'))).data as { id: string }[]).map((server) => server.id);
    expect(await listed()).toEqual([]);
    const added = await a.request('/settings/mcp-servers', {
      method: 'POST',
      json: { id: 'team-tools', command: 'switchyard-no-such-command', env: { TOKEN: 'shared' } },
    });
    expect(added.status).toBe(200);
    expect(await until(listed, (ids) => ids.includes('team-tools'))).toEqual(['team-tools']);
    expect((await a.request('/settings/mcp-servers/team-tools', { method: 'DELETE' })).status).toBe(200);
    expect(await until(listed, (ids) => ids.length === 0)).toEqual([]);
  });

  it('refuses on every instance a provider whose breaker opened on one, without calling it', async () => {
    team = await startTeamOfGateways(2, {
      config: config({ failure_threshold: 2, cooldown_ms: 30_000, max_cooldown_ms: 60_000 }),
    });
    const [a, b] = team.instances;
    upstream.setBehaviour({ failure: { type: 'status', status: 500 }, path: '/v1/chat/completions' });
    const body = { model: 'free', messages: [{ role: 'user', content: 'x' }] };
    expect((await chat(a, undefined, body)).status).toBe(502);
    expect((await chat(a, undefined, body)).status).toBe(502);
    const called = upstream.requests.length;
    // B learns of A's open breaker over pub/sub: wait for B to report it, without sending B a chat
    // meanwhile (one sent before the news arrives would reach the upstream and count on B's breaker).
    expect(await breakerOnceIn(b, 'open')).toBe('open');
    const refused = await chat(b, undefined, body);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(20);
    expect(upstream.requests).toHaveLength(called);
    // An instance that starts later finds the breaker open too.
    const late = await startGateway({
      dataDir: team.dataDir,
      config: config({ failure_threshold: 2, cooldown_ms: 30_000 }),
      env: { GATEWAY_REDIS_URL: TEST_REDIS_URL, GATEWAY_REDIS_PREFIX: team.prefix, GATEWAY_INSTANCE_ID: 'late' },
    });
    team.instances.push(late);
    expect((await chat(late, undefined, body)).status).toBe(503);
    expect(upstream.requests).toHaveLength(called);
  });

  it('names the instance in /status and in the request log entries', async () => {
    team = await startTeamOfGateways(2, { config: config() });
    const [a, b] = team.instances;
    expect(await json(await a.request('/status'))).toMatchObject({ instance_id: 'instance-a', team: { redis: 'ok' } });
    await b.request('/models', { headers: { 'x-request-id': 'served-by-b' } });
    const log = await json(await b.request('/console/requests?limit=50'));
    expect(log.data.find((entry: Json) => entry.id === 'served-by-b')).toMatchObject({ instance_id: 'instance-b' });
  });

  it('does not start when Redis does not answer, and says which URL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-team-'));
    try {
      await expect(startGateway({ dataDir, env: { GATEWAY_REDIS_URL: 'redis://127.0.0.1:1' } })).rejects.toThrow(
        /Redis at redis:\/\/127\.0\.0\.1:1\/? did not answer.*GATEWAY_REDIS_URL/,
      );
      // Nothing was opened: no database file in the data folder.
      expect(existsSync(join(dataDir, 'switchyard.db'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers rate-limited and paid requests with 503 and Retry-After while Redis is lost, serves the rest, and recovers (limits and change feed) when it is back', async () => {
    const redisTarget = new URL(TEST_REDIS_URL);
    relay = await startTcpRelay(redisTarget.hostname, Number(redisTarget.port || 6379));
    team = await startTeamOfGateways(2, { config: config(), redisUrl: `redis://127.0.0.1:${relay.port}` });
    const [a, b] = team.instances;
    const limited = await createKey(a, { rpm_limit: 100 });
    expect((await a.request('/models', { key: limited.key })).status).toBe(200);

    await relay.cut();
    const refused = await statusOnceApplied(() => a.request('/models', { key: limited.key }), 503);
    expect(refused).toBe(503);
    const answer = await a.request('/models', { key: limited.key });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(await json(answer)).toMatchObject({ type: 'server_error', code: 'team_store_unavailable' });
    const paid = await chat(a, undefined, {
      model: 'by-output',
      max_tokens: 2,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(paid.status).toBe(503);
    // Keys without a rate limit still reach unpaid routes; /status says Redis is away.
    expect((await a.request('/models')).status).toBe(200);
    expect((await json(await a.request('/status'))).team).toEqual({ redis: 'unreachable' });
    const readiness = await a.request('/health/readiness');
    expect(readiness.status).toBe(200);
    expect((await json(readiness)).checks.redis).toBe('unreachable');

    await relay.restore();
    expect(await statusOnceApplied(() => a.request('/models', { key: limited.key }), 200)).toBe(200);
    expect(
      (await chat(a, undefined, { model: 'by-output', max_tokens: 2, messages: [{ role: 'user', content: 'x' }] }))
        .status,
    ).toBe(200);
    // The change feed is back too: a key revoked on A is refused by B.
    expect(await statusOnceApplied(() => b.request('/models', { key: limited.key }), 200)).toBe(200);
    expect((await a.request(`/account/keys/${limited.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await statusOnceApplied(() => b.request('/models', { key: limited.key }), 401)).toBe(401);
  });
});
