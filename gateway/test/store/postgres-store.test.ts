import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { json, type Json } from '../support/start-gateway.js';
import { dropRedisPrefix, TEST_REDIS_URL } from '../support/team-of-gateways.js';
import { createTestDatabase } from '../support/test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useGateway, useTempDir } from '../support/use-resources.js';

let database: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('a gateway on PostgreSQL (GATEWAY_DATABASE_URL, alone with GATEWAY_INSTANCES=1)', () => {
  it('keeps keys, usage, the balance and the request log in PostgreSQL across a restart with a new data folder', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const env = { GATEWAY_DATABASE_URL: database.url, GATEWAY_INSTANCES: '1' };
    const config = upstreamConfig(upstream);
    let gateway = await useGateway({ env, config });

    const created = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'pg member', role: 'member' } }),
    );
    expect(created.key).toMatch(/^sk-sy-/);
    const chat = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      key: created.key,
      json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hello there' }] },
      headers: { 'x-request-id': 'pg-chat-1' },
    });
    expect(chat.status).toBe(200);
    const answer = await json(chat);
    expect(answer.usage.total_tokens).toBeGreaterThan(0);

    // The member's own view: its usage and the account's balance (reads are recorded after they answer).
    const me = async (): Promise<Json> => json(await gateway.request('/account/me', { key: created.key }));
    const before = await me();
    expect(before.usage).toMatchObject({
      total_requests: 1,
      prompt_tokens: answer.usage.prompt_tokens,
      completion_tokens: answer.usage.completion_tokens,
    });
    expect(before.usage.total_cost).toBeGreaterThan(0);
    expect(before.balance.amount).toBeLessThan(100);

    // The data folder is not where the state lives: a new one, same database.
    await gateway.stop();
    gateway = await useGateway({ env, config, dataDir: useTempDir() });
    const keys = await json(await gateway.request('/account/keys'));
    expect((keys.data as Json[]).map((key) => key.name)).toContain('pg member');
    const after = await me();
    expect(after.usage).toMatchObject({
      prompt_tokens: before.usage.prompt_tokens,
      completion_tokens: before.usage.completion_tokens,
      total_cost: before.usage.total_cost,
    });
    expect(after.usage.total_requests).toBe(2);
    expect(after.balance.amount).toBe(before.balance.amount);
    const log = await json(await gateway.request('/console/requests'));
    expect((log.data as Json[]).find((entry) => entry.id === 'pg-chat-1')).toMatchObject({
      status: 200,
      path: '/v1/chat/completions',
      model: 'svc-large-3-2512',
    });
  });

  it('three instances starting together on one fresh database and one Redis share keys: created on A, used on B, revoked on A, refused by C within a second', async () => {
    const team = await createTestDatabase();
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(async () => {
      await team.drop();
      await dropRedisPrefix(TEST_REDIS_URL, prefix);
    });
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const env = (id: string) => ({
      GATEWAY_DATABASE_URL: team.url,
      GATEWAY_REDIS_URL: TEST_REDIS_URL,
      GATEWAY_REDIS_PREFIX: prefix,
      GATEWAY_INSTANCE_ID: id,
    });
    // At once: migrations and the admin key are created by whichever comes first, under the lock.
    const [a, b, c] = await Promise.all(
      ['gw-a', 'gw-b', 'gw-c'].map((id) => useGateway({ env: env(id), config: upstreamConfig(upstream) })),
    );
    const keys = await json(await a.request('/account/keys'));
    expect((keys.data as Json[]).filter((key) => key.role === 'owner')).toHaveLength(1);

    const member = await json(
      await a.request('/account/keys', { method: 'POST', json: { name: 'shared', role: 'member' } }),
    );
    expect((await b.request('/v1/models', { key: member.key })).status).toBe(200);
    expect((await c.request('/v1/models', { key: member.key })).status).toBe(200);
    expect((await a.request(`/account/keys/${member.id}`, { method: 'DELETE' })).status).toBe(200);
    // The revocation reaches C over the change feed: wait for it (bounded far above a loaded machine's lag).
    await expect
      .poll(async () => (await c.request('/v1/models', { key: member.key })).status, { timeout: 10_000, interval: 20 })
      .toBe(401);
  });
});
