import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { json } from '../support/start-gateway.js';
import { startTcpRelay } from '../support/tcp-relay.js';
import { createTestDatabase } from '../support/test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../support/use-resources.js';

let database: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('PostgreSQL going away while the gateway serves (a real server behind a TCP relay that is cut and restored)', () => {
  it('answers what needs the database with 503 and Retry-After, keeps the usage of answered requests, says so on readiness, and recovers', async () => {
    const target = new URL(database.url);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 5432));
    onTestFinished(() => relay.close());
    const through = new URL(database.url);
    through.port = String(relay.port);
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await useGateway({
      env: { GATEWAY_DATABASE_URL: through.toString(), GATEWAY_INSTANCES: '1' },
      config: upstreamConfig(upstream),
    });
    const member = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } }),
    );
    const chat = () =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        key: member.key,
        json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hello' }] },
      });
    expect((await chat()).status).toBe(200);

    await relay.cut();
    const usage = await gateway.request('/account/usage', { key: member.key, headers: { 'x-api-key': member.key } });
    expect(usage.status).toBe(503);
    expect(usage.headers.get('retry-after')).toBe('5');
    expect(await json(usage)).toMatchObject({
      object: 'error',
      type: 'server_error',
      code: 'database_unavailable',
      param: null,
    });
    const created = await gateway.request('/account/keys', {
      method: 'POST',
      json: { name: 'during the outage', role: 'member' },
    });
    expect(created.status).toBe(503);
    // A request the cached key answers without the database still gets its answer; its usage waits.
    const answered = await chat();
    expect(answered.status).toBe(200);
    const readiness = await gateway.request('/health/readiness', { key: null });
    expect(readiness.status).toBe(503);
    expect(readiness.headers.get('retry-after')).toBe('5');
    expect((await json(readiness)).checks.database).toBe('unreachable');

    await relay.restore();
    await expect
      .poll(async () => (await gateway.request('/health/readiness', { key: null })).status, { timeout: 10_000 })
      .toBe(200);
    // Both chats are on the ledger: the one answered during the outage was written when the database came back.
    const chatsOnLedger = async () => {
      const answer = await json(
        await gateway.request('/account/usage', { key: member.key, headers: { 'x-api-key': member.key } }),
      );
      return answer.usage?.by_model.find((group: { key: string }) => group.key.startsWith('svc-large-3'))?.requests;
    };
    await expect.poll(chatsOnLedger, { timeout: 10_000 }).toBe(2);
    expect(
      (await gateway.request('/account/keys', { method: 'POST', json: { name: 'after', role: 'member' } })).status,
    ).toBe(201);
  });
});
