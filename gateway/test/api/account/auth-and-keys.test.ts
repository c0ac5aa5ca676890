import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, json, type TestGateway } from '../../support/start-gateway.js';
import { useGateway } from '../../support/use-resources.js';

let gateway: TestGateway;
beforeEach(async () => {
  gateway = await useGateway();
});

async function createKey(body: Record<string, unknown>) {
  const response = await gateway.request('/account/keys', { method: 'POST', json: body });
  expect(response.status).toBe(201);
  return (await json(response)) as { id: string; key: string; prefix: string; role: string };
}

describe('authentication', () => {
  it('accepts Authorization: Bearer and X-API-Key alike on /account/me', async () => {
    const bearer = await gateway.request('/account/me', {
      key: null,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const header = await gateway.request('/account/me', { key: null, headers: { 'x-api-key': ADMIN_KEY } });
    expect(bearer.status).toBe(200);
    expect(header.status).toBe(200);
    const body = await json(bearer);
    expect(body.api_key.prefix).toBe(`${ADMIN_KEY.slice(0, 10)}…`);
    expect(JSON.stringify(body)).not.toContain(ADMIN_KEY);
    expect(body).toMatchObject({
      user: { full_name: 'Local developer' },
      balance: { amount: 100, currency: 'USD' },
      usage: { total_requests: expect.any(Number) },
    });
    expect(body.balance).not.toHaveProperty('limit');
  });

  it('401 without a key or with an unknown one', async () => {
    const none = await gateway.request('/models', { key: null });
    expect(none.status).toBe(401);
    expect(await json(none)).toMatchObject({ object: 'error', type: 'authentication_error', code: 'missing_api_key' });
    const unknown = await gateway.request('/models', { key: 'sk-sy-not-a-real-key' });
    expect(unknown.status).toBe(401);
    expect((await json(unknown)).code).toBe('invalid_api_key');
  });

  it('/account/usage requires X-API-Key; Bearer alone is refused', async () => {
    const bearer = await gateway.request('/account/usage');
    expect(bearer.status).toBe(401);
    expect((await json(bearer)).message).toMatch(/X-API-Key/);
    const header = await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': ADMIN_KEY } });
    expect(header.status).toBe(200);
    const body = await json(header);
    expect(Object.keys(body)).toEqual(['usage']);
    expect(body.usage).toMatchObject({
      total_requests: expect.any(Number),
      by_model: expect.any(Array),
      by_day: expect.any(Array),
    });
  });

  it('/status needs no key', async () => {
    const response = await gateway.request('/status', { key: null });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      status: 'ok',
      version: '0.1.0',
      checks: { ocr: expect.any(Boolean), asr: false },
    });
  });
});

describe('key lifecycle', () => {
  it('creates a key shown once, lists it by prefix only, and the new key works', async () => {
    const created = await createKey({ name: 'ci', role: 'member' });
    expect(created.key).toMatch(/^sk-sy-/);
    expect(created.prefix).toBe(`${created.key.slice(0, 10)}…`);
    const list = await json(await gateway.request('/account/keys'));
    const listed = list.data.find((entry: { id: string }) => entry.id === created.id);
    expect(listed).toMatchObject({ name: 'ci', role: 'member', prefix: created.prefix, revoked: false });
    expect(JSON.stringify(list)).not.toContain(created.key);
    const me = await gateway.request('/account/me', { key: created.key });
    expect(me.status).toBe(200);
    expect((await json(me)).api_key).toMatchObject({ id: created.id, role: 'member' });
  });

  it('members cannot manage keys (403) or delete models', async () => {
    const member = await createKey({ name: 'member' });
    const response = await gateway.request('/account/keys', { key: member.key });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({ type: 'permission_error', code: 'owner_role_required' });
    expect((await gateway.request('/v1/models/ft:x', { method: 'DELETE', key: member.key })).status).toBe(403);
  });

  it('renames and limits a key, and a revoked key stops working at once', async () => {
    const created = await createKey({ name: 'temp' });
    const patched = await gateway.request(`/account/keys/${created.id}`, {
      method: 'PATCH',
      json: { name: 'renamed', spend_limit: 5, rpm_limit: 100 },
    });
    expect(patched.status).toBe(200);
    expect(await json(patched)).toMatchObject({ name: 'renamed', spend_limit: 5, rpm_limit: 100 });
    expect((await gateway.request('/account/me', { key: created.key })).status).toBe(200);
    const revoked = await gateway.request(`/account/keys/${created.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect((await json(revoked)).revoked).toBe(true);
    const after = await gateway.request('/account/me', { key: created.key });
    expect(after.status).toBe(401);
  });

  it('404 for an unknown key id and 409 for revoking the last Owner key', async () => {
    expect((await gateway.request('/account/keys/key_nope', { method: 'DELETE' })).status).toBe(404);
    const keys = await json(await gateway.request('/account/keys'));
    const owner = keys.data.find((entry: { role: string }) => entry.role === 'owner');
    const response = await gateway.request(`/account/keys/${owner.id}`, { method: 'DELETE' });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ type: 'conflict_error', code: 'last_owner_key' });
  });
});

describe('rate limits and quota', () => {
  it('429 with Retry-After once a key exceeds its requests per minute', async () => {
    const limited = await createKey({ name: 'slow', rpm_limit: 3 });
    for (let i = 0; i < 3; i++) expect((await gateway.request('/models', { key: limited.key })).status).toBe(200);
    const refused = await gateway.request('/models', { key: limited.key });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await json(refused)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect((await gateway.request('/models')).status).toBe(200);
  });

  it('402 naming the limit when the balance or a spending limit is exhausted', async () => {
    const member = await createKey({ name: 'spender' });
    expect((await gateway.request('/account/balance', { method: 'PATCH', json: { amount: 0 } })).status).toBe(200);
    const broke = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { input: 'hello' },
      key: member.key,
    });
    expect(broke.status).toBe(402);
    expect(await json(broke)).toMatchObject({ type: 'insufficient_quota', code: 'balance_exhausted' });

    await gateway.request('/account/balance', { method: 'PATCH', json: { amount: 50, limit: 0 } });
    const accountLimit = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { input: 'hello' },
      key: member.key,
    });
    expect(accountLimit.status).toBe(402);
    expect((await json(accountLimit)).code).toBe('account_limit_reached');

    await gateway.request('/account/balance', { method: 'PATCH', json: { limit: null } });
    await gateway.request(`/account/keys/${member.id}`, { method: 'PATCH', json: { spend_limit: 0 } });
    const keyLimit = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { input: 'hello' },
      key: member.key,
    });
    expect(keyLimit.status).toBe(402);
    expect((await json(keyLimit)).code).toBe('key_limit_reached');
    const me = await json(await gateway.request('/account/me', { key: member.key }));
    expect(me.balance).toMatchObject({ amount: 50, limit: 0 });
  });
});

describe('persistence', () => {
  it('keys, usage and balance survive a restart on the same data folder', async () => {
    const dataDir = gateway.dataDir;
    const created = await createKey({ name: 'survivor', rpm_limit: 50 });
    await gateway.request('/account/balance', { method: 'PATCH', json: { amount: 42.5 } });
    for (let i = 0; i < 3; i++) await gateway.request('/models', { key: created.key });
    await gateway.stop();

    gateway = await useGateway({ dataDir });
    const me = await gateway.request('/account/me', { key: created.key });
    expect(me.status).toBe(200);
    const body = await json(me);
    expect(body.balance.amount).toBe(42.5);
    expect(body.api_key).toMatchObject({ name: 'survivor', rpm_limit: 50 });
    expect(body.usage.total_requests).toBe(3);
  });
});
