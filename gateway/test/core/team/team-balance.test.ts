import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { json, type TestGateway } from '../../support/start-gateway.js';
import { dropRedisPrefix, TEST_REDIS_URL } from '../../support/team-of-gateways.js';
import { createTestDatabase } from '../../support/test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

let database: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const balanceOn = async (on: TestGateway, key?: string): Promise<number> => {
  const me = await on.request('/account/me', key ? { key } : {});
  expect(me.status).toBe(200);
  return (await json(me)).balance.amount as number;
};

const chat = async (on: TestGateway, key: string): Promise<void> => {
  const answer = await on.request('/v1/chat/completions', {
    method: 'POST',
    key,
    json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'count the coins' }] },
  });
  expect(answer.status).toBe(200);
};

describe('the balance in team mode: one PostgreSQL, one Redis', () => {
  it('two instances show the same balance right after requests on either', async () => {
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(() => dropRedisPrefix(TEST_REDIS_URL, prefix));
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const env = (id: string) => ({
      GATEWAY_DATABASE_URL: database.url,
      GATEWAY_REDIS_URL: TEST_REDIS_URL,
      GATEWAY_REDIS_PREFIX: prefix,
      GATEWAY_INSTANCE_ID: id,
    });
    const a = await useGateway({ env: env('gw-a'), config: upstreamConfig(upstream) });
    const b = await useGateway({ env: env('gw-b'), config: upstreamConfig(upstream) });
    const created = await a.request('/account/keys', { method: 'POST', json: { role: 'member', name: 'coins' } });
    expect(created.status).toBe(201);
    const { key } = await json(created);

    // B reads the account before A spends anything.
    const initial = await balanceOn(b);
    for (let i = 0; i < 3; i++) await chat(a, key);
    const onA = await balanceOn(a, key);
    expect(onA).toBeLessThan(initial);
    expect(await balanceOn(b, key)).toBe(onA);
    expect(await balanceOn(b)).toBe(onA);

    // And the other way round: spent on B, read on A.
    await chat(b, key);
    const afterB = await balanceOn(b, key);
    expect(afterB).toBeLessThan(onA);
    expect(await balanceOn(a, key)).toBe(afterB);
  });
});
