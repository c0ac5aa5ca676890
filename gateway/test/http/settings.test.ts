import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { json, startGateway, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';

const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'hello' }] });

describe('Owner settings: model routes and provider tests', () => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;

  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('lists providers without their keys, routes with their source, and the server settings', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const response = await gateway.request('/settings');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(UPSTREAM_KEY);
    const body = JSON.parse(text);
    expect(body.providers.find((p: { id: string }) => p.id === 'upstream')).toMatchObject({ type: 'openai', has_api_key: true, routes: ['svc-large-3-2512'], breaker: { state: 'closed' } });
    expect(body.routes.find((r: { id: string }) => r.id === 'svc-large-3-2512')).toMatchObject({ source: 'config', in_config: true, upstream_model: 'my-model' });
    expect(body.server).toMatchObject({ data_dir: gateway.dataDir, request_log_bodies: expect.any(Boolean) });
  });

  it('a route added in the console serves requests at once and survives a restart; deleting it stops it', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const before = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('console-model') });
    expect(before.status).toBe(404);

    const put = await gateway.request('/settings/routes/console-model', { method: 'PUT', json: { provider: 'upstream', upstream_model: 'console-upstream', capabilities: ['chat'], aliases: ['cm'] } });
    expect(put.status).toBe(200);
    expect(await json(put)).toMatchObject({ id: 'console-model', source: 'console', in_config: false });
    const served = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('cm') });
    expect(served.status).toBe(200);
    expect(upstream.requests.at(-1)?.body).toMatchObject({ model: 'console-upstream' });

    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config: upstreamConfig(upstream), dataDir });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('console-model') })).status).toBe(200);

    expect((await gateway.request('/settings/routes/console-model', { method: 'DELETE' })).status).toBe(200);
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('console-model') })).status).toBe(404);
    expect((await gateway.request('/settings/routes/console-model', { method: 'DELETE' })).status).toBe(404);
  });

  it('a config-file route edited or removed in the console stays so after a restart until it is reset', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    expect((await gateway.request('/settings/routes/svc-large-3-2512', { method: 'DELETE' })).status).toBe(200);
    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config: upstreamConfig(upstream), dataDir });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('svc-large-3-2512') })).status).toBe(404);

    const reset = await gateway.request('/settings/routes/svc-large-3-2512/reset', { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(await json(reset)).toMatchObject({ source: 'config', upstream_model: 'my-model' });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('svc-large-3') })).status).toBe(200);
  });

  it('refuses bad routes with the documented error shape and Member keys with 403', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const unknownProvider = await gateway.request('/settings/routes/x', { method: 'PUT', json: { provider: 'nope', capabilities: ['chat'] } });
    expect(unknownProvider.status).toBe(400);
    expect(await json(unknownProvider)).toMatchObject({ code: 'provider_not_found', param: 'provider' });
    const noCapability = await gateway.request('/settings/routes/x', { method: 'PUT', json: { provider: 'upstream', capabilities: [] } });
    expect(noCapability.status).toBe(422);
    const takenAlias = await gateway.request('/settings/routes/x', { method: 'PUT', json: { provider: 'upstream', capabilities: ['chat'], aliases: ['svc-large-3'] } });
    expect(takenAlias.status).toBe(409);
    expect(await json(takenAlias)).toMatchObject({ code: 'alias_taken' });

    const created = await json(await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } }));
    const member = await gateway.request('/settings', { key: created.key });
    expect(member.status).toBe(403);
  });

  it('test connection makes one real request and reports the upstream error without tripping the breaker', async () => {
    upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const ok = await gateway.request('/settings/providers/upstream/test', { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ ok: true, checked: 'request', model: 'svc-large-3-2512', capability: 'embeddings' });
    expect(upstream.requests.at(-1)?.path).toContain('/embeddings');

    await upstream.close();
    upstream = await startFakeUpstream({ apiKey: 'sk-another-key' });
    const config = upstreamConfig(upstream);
    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config, dataDir });
    const chatOnly = await gateway.request('/settings/providers/upstream/test?model=svc-large-3-2512', { method: 'POST' });
    const failed = await json(chatOnly);
    expect(failed).toMatchObject({ ok: false, checked: 'request' });
    expect(failed.error).toMatch(/key|auth|401/i);
    const status = await json(await gateway.request('/status'));
    expect(status.providers.find((p: { id: string }) => p.id === 'upstream').breaker.consecutive_failures).toBe(0);

    expect((await gateway.request('/settings/providers/nope/test', { method: 'POST' })).status).toBe(404);
  });

  it('is in the OpenAPI document', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const doc = await json(await gateway.request('/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/settings', '/settings/routes/{id}', '/settings/routes/{id}/reset', '/settings/providers/{id}/test']));
  });
});
