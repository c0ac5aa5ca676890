import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadGatewayOptions } from '../../../src/config/load-options.js';
import { useTempDir } from '../../support/use-resources.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { json, startGateway, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';

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
    expect(body.providers.find((p: { id: string }) => p.id === 'upstream')).toMatchObject({
      type: 'openai',
      has_api_key: true,
      routes: ['svc-large-3-2512'],
      breaker: { state: 'closed' },
    });
    expect(body.routes.find((r: { id: string }) => r.id === 'svc-large-3-2512')).toMatchObject({
      source: 'config',
      in_config: true,
      upstream_model: 'my-model',
    });
    expect(body.server).toMatchObject({ data_dir: gateway.dataDir, request_log_bodies: expect.any(Boolean) });
  });

  it("marks the gateway's own engines and their routes built_in, not config, when a config file is present; a console edit and a reset go back to built_in", async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const body = await json(await gateway.request('/settings'));
    const sourceOf = (list: { id: string; source: string }[]) =>
      Object.fromEntries(list.map((entry) => [entry.id, entry.source]));
    expect(sourceOf(body.providers)).toMatchObject({
      upstream: 'config',
      'local-ocr': 'built_in',
      'local-llm': 'built_in',
      'local-speech': 'built_in',
      'local-embed': 'built_in',
    });
    const routes = sourceOf(body.routes);
    // The config file redefines the chat model's id; the OCR, vision, speech and embedding routes are the built-in ones.
    expect(routes['svc-large-3-2512']).toBe('config');
    const builtInRoutes = body.routes.filter((route: { provider: string }) => route.provider.startsWith('local-'));
    expect(builtInRoutes.length).toBeGreaterThanOrEqual(4);
    for (const route of builtInRoutes) expect(route.source).toBe('built_in');

    const ocrRoute = builtInRoutes.find((route: { capabilities: string[] }) => route.capabilities.includes('ocr'));
    const { id, source: _source, in_config: _inConfig, ...fields } = ocrRoute;
    expect(
      await json(
        await gateway.request(`/settings/routes/${id}`, { method: 'PUT', json: { ...fields, aliases: ['my-ocr'] } }),
      ),
    ).toMatchObject({ source: 'console', in_config: true });
    expect(await json(await gateway.request(`/settings/routes/${id}/reset`, { method: 'POST' }))).toMatchObject({
      source: 'built_in',
    });
  });

  it('counts a GGUF file in the models folder among the built-ins, and an id the config file redefines among its own', async () => {
    const dataDir = useTempDir();
    mkdirSync(join(dataDir, 'models'));
    writeFileSync(join(dataDir, 'models', 'tiny.gguf'), '');
    const configPath = join(dataDir, 'config.yaml');
    writeFileSync(configPath, stringify({ providers: [{ id: 'local-speech', type: 'sherpa-onnx' }] }));
    const options = await loadGatewayOptions({ env: {}, overrides: { dataDir, configPath } });
    expect(options.builtIn?.providers).toEqual(['local-ocr', 'local-llm', 'local-embed']);
    expect(options.builtIn?.models).toEqual(expect.arrayContaining(['tiny', 'svc-large-3-2512']));
  });

  it('a route added in the console serves requests at once and survives a restart; deleting it stops it', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const before = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('console-model') });
    expect(before.status).toBe(404);

    const put = await gateway.request('/settings/routes/console-model', {
      method: 'PUT',
      json: { provider: 'upstream', upstream_model: 'console-upstream', capabilities: ['chat'], aliases: ['cm'] },
    });
    expect(put.status).toBe(200);
    expect(await json(put)).toMatchObject({ id: 'console-model', source: 'console', in_config: false });
    const served = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('cm') });
    expect(served.status).toBe(200);
    expect(upstream.requests.at(-1)?.body).toMatchObject({ model: 'console-upstream' });

    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config: upstreamConfig(upstream), dataDir });
    expect(
      (await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('console-model') })).status,
    ).toBe(200);

    expect((await gateway.request('/settings/routes/console-model', { method: 'DELETE' })).status).toBe(200);
    expect(
      (await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('console-model') })).status,
    ).toBe(404);
    expect((await gateway.request('/settings/routes/console-model', { method: 'DELETE' })).status).toBe(404);
  });

  it('a config-file route edited or removed in the console stays so after a restart until it is reset', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    expect((await gateway.request('/settings/routes/svc-large-3-2512', { method: 'DELETE' })).status).toBe(200);
    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config: upstreamConfig(upstream), dataDir });
    expect(
      (await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('svc-large-3-2512') })).status,
    ).toBe(404);

    const reset = await gateway.request('/settings/routes/svc-large-3-2512/reset', { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(await json(reset)).toMatchObject({ source: 'config', upstream_model: 'my-model' });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('svc-large-3') })).status).toBe(
      200,
    );
  });

  it('refuses bad routes with the documented error shape and Member keys with 403', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const unknownProvider = await gateway.request('/settings/routes/x', {
      method: 'PUT',
      json: { provider: 'nope', capabilities: ['chat'] },
    });
    expect(unknownProvider.status).toBe(400);
    expect(await json(unknownProvider)).toMatchObject({ code: 'provider_not_found', param: 'provider' });
    const noCapability = await gateway.request('/settings/routes/x', {
      method: 'PUT',
      json: { provider: 'upstream', capabilities: [] },
    });
    expect(noCapability.status).toBe(422);
    const takenAlias = await gateway.request('/settings/routes/x', {
      method: 'PUT',
      json: { provider: 'upstream', capabilities: ['chat'], aliases: ['svc-large-3'] },
    });
    expect(takenAlias.status).toBe(409);
    expect(await json(takenAlias)).toMatchObject({ code: 'alias_taken' });

    const created = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } }),
    );
    const member = await gateway.request('/settings', { key: created.key });
    expect(member.status).toBe(403);
  });

  it('test connection makes one real request and reports the upstream error without tripping the breaker', async () => {
    upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const ok = await gateway.request('/settings/providers/upstream/test', { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({
      ok: true,
      checked: 'request',
      model: 'svc-large-3-2512',
      capability: 'embeddings',
    });
    expect(upstream.requests.at(-1)?.path).toContain('/embeddings');
    // The last test is kept (in memory) and returned with the provider, and on /status with its kind.
    const listed = (await json(await gateway.request('/settings'))).providers.find(
      (p: { id: string }) => p.id === 'upstream',
    );
    expect(listed.last_check).toMatchObject({ ok: true, capability: 'embeddings' });
    const upstreamStatus = (await json(await gateway.request('/status'))).providers.find(
      (p: { id: string }) => p.id === 'upstream',
    );
    expect(upstreamStatus).toMatchObject({ kind: 'upstream', last_test: { ok: true } });

    await upstream.close();
    upstream = await startFakeUpstream({ apiKey: 'sk-another-key' });
    const config = upstreamConfig(upstream);
    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config, dataDir });
    const chatOnly = await gateway.request('/settings/providers/upstream/test?model=svc-large-3-2512', {
      method: 'POST',
    });
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
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/settings',
        '/settings/routes/{id}',
        '/settings/routes/{id}/reset',
        '/settings/providers/{id}/test',
      ]),
    );
  });
});

describe('Owner settings: providers and live server settings', () => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;

  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const provider = (id: string) => async () =>
    (await json(await gateway.request('/settings'))).providers.find((p: { id: string }) => p.id === id);

  it('a provider added in the console serves its routes at once, keeps its key write-only, and survives a restart', async () => {
    upstream = await startFakeUpstream({ apiKey: 'sk-second-secret' });
    const first = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    try {
      gateway = await startGateway({ config: upstreamConfig(first) });
      const added = await gateway.request('/settings/providers', {
        method: 'POST',
        json: { id: 'second', type: 'openai', base_url: upstream.url, api_key: 'sk-second-secret' },
      });
      expect(added.status).toBe(200);
      const addedText = await added.text();
      expect(addedText).not.toContain('sk-second-secret');
      expect(JSON.parse(addedText)).toMatchObject({
        id: 'second',
        has_api_key: true,
        source: 'console',
        in_config: false,
        removed: false,
        routes: [],
      });

      expect(
        (
          await gateway.request('/settings/routes/on-second', {
            method: 'PUT',
            json: { provider: 'second', upstream_model: 'second-model', capabilities: ['chat'] },
          })
        ).status,
      ).toBe(200);
      expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('on-second') })).status).toBe(
        200,
      );
      expect(upstream.requests.at(-1)).toMatchObject({ body: { model: 'second-model' } });
      expect(await json(await gateway.request('/settings/providers/second/test', { method: 'POST' }))).toMatchObject({
        ok: true,
        checked: 'request',
        model: 'on-second',
      });

      // An edit that leaves the key out keeps it; the key never appears in any answer.
      const edited = await gateway.request('/settings/providers/second', {
        method: 'PUT',
        json: { type: 'openai', base_url: upstream.url, api_key: '', timeouts: { connect: 1000 } },
      });
      expect(edited.status).toBe(200);
      expect(await json(edited)).toMatchObject({ has_api_key: true, timeouts: { connect: 1000 } });
      expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('on-second') })).status).toBe(
        200,
      );
      expect(await (await gateway.request('/settings')).text()).not.toContain('sk-second-secret');

      const { dataDir } = gateway;
      await gateway.stop();
      gateway = await startGateway({ config: upstreamConfig(first), dataDir });
      expect(await provider('second')()).toMatchObject({
        source: 'console',
        has_api_key: true,
        base_url: upstream.url,
        routes: ['on-second'],
      });
      expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('on-second') })).status).toBe(
        200,
      );

      const inUse = await gateway.request('/settings/providers/second', { method: 'DELETE' });
      expect(inUse.status).toBe(409);
      expect(await json(inUse)).toMatchObject({ code: 'provider_in_use', param: 'id' });
      expect((await gateway.request('/settings/routes/on-second', { method: 'DELETE' })).status).toBe(200);
      expect((await gateway.request('/settings/providers/second', { method: 'DELETE' })).status).toBe(200);
      expect(await provider('second')()).toBeUndefined();
      expect((await gateway.request('/settings/providers/second/test', { method: 'POST' })).status).toBe(404);
    } finally {
      await first.close();
    }
  });

  it('test connection reports a wrong URL as the provider error, and a provider without routes is tested on its test model', async () => {
    upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    await gateway.request('/settings/providers', {
      method: 'POST',
      json: { id: 'lonely', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
    });
    const noModel = await gateway.request('/settings/providers/lonely/test', { method: 'POST' });
    expect(noModel.status).toBe(400);
    expect(await json(noModel)).toMatchObject({ code: 'test_model_required', param: 'test_model' });

    await gateway.request('/settings/providers/lonely', {
      method: 'PUT',
      json: { type: 'openai', base_url: upstream.url, test_model: 'probe-model' },
    });
    expect(await json(await gateway.request('/settings/providers/lonely/test', { method: 'POST' }))).toMatchObject({
      ok: true,
      checked: 'request',
      model: 'probe-model',
      capability: 'chat',
    });
    expect(upstream.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', body: { model: 'probe-model' } });

    await gateway.request('/settings/providers/lonely', {
      method: 'PUT',
      json: { type: 'openai', base_url: 'http://127.0.0.1:9/v1', test_model: 'probe-model' },
    });
    const failed = await json(await gateway.request('/settings/providers/lonely/test', { method: 'POST' }));
    expect(failed).toMatchObject({ ok: false, checked: 'request' });
    expect(failed.error).toMatch(/connect|refused|ECONNREFUSED|reach/i);

    // Routes on an edited provider call the new instance from the next request on.
    await gateway.request('/settings/routes/via-lonely', {
      method: 'PUT',
      json: { provider: 'lonely', upstream_model: 'probe-model', capabilities: ['chat'], max_retries: 0 },
    });
    expect(
      (await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('via-lonely') })).status,
    ).toBeGreaterThanOrEqual(500);
    await gateway.request('/settings/providers/lonely', {
      method: 'PUT',
      json: { type: 'openai', base_url: upstream.url },
    });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('via-lonely') })).status).toBe(
      200,
    );
  });

  it('refuses bad providers with 404, 409 and 422 in the error shape', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const expectError = async (response: Response, status: number, fields: Record<string, unknown>) => {
      expect(response.status).toBe(status);
      expect(await json(response)).toMatchObject({ object: 'error', ...fields });
    };
    await expectError(
      await gateway.request('/settings/providers', { method: 'POST', json: { id: 'upstream', type: 'openai' } }),
      409,
      { code: 'provider_exists', param: 'id' },
    );
    await expectError(
      await gateway.request('/settings/providers', { method: 'POST', json: { id: 'x', type: 'warp-drive' } }),
      422,
      { code: 'unknown_provider_type', param: 'type' },
    );
    expect(
      (await gateway.request('/settings/providers', { method: 'POST', json: { id: 'has space', type: 'openai' } }))
        .status,
    ).toBe(422);
    expect(
      (
        await gateway.request('/settings/providers', {
          method: 'POST',
          json: { id: 'x', type: 'openai', base_url: 'ftp://nowhere' },
        })
      ).status,
    ).toBe(422);
    expect(
      (await gateway.request('/settings/providers', { method: 'POST', json: { id: 'x', type: 'openai', surprise: 1 } }))
        .status,
    ).toBe(422);
    await expectError(
      await gateway.request('/settings/providers/nope', { method: 'PUT', json: { type: 'openai' } }),
      404,
      { code: 'provider_not_found' },
    );
    await expectError(await gateway.request('/settings/providers/nope', { method: 'DELETE' }), 404, {
      code: 'provider_not_found',
    });
    await expectError(
      await gateway.request('/settings/routes/%23provider%3Ax', {
        method: 'PUT',
        json: { provider: 'upstream', capabilities: ['chat'] },
      }),
      400,
      { code: 'invalid_route_id' },
    );
    expect((await gateway.request('/settings/server', { method: 'PATCH' })).status).toBe(422);
    expect((await gateway.request('/settings/providers/upstream', { method: 'PUT' })).status).toBe(422);

    const member = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } }),
    );
    expect(
      (
        await gateway.request('/settings/providers', {
          method: 'POST',
          key: member.key,
          json: { id: 'y', type: 'openai' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await gateway.request('/settings/server', {
          method: 'PATCH',
          key: member.key,
          json: { request_log_bodies: true },
        })
      ).status,
    ).toBe(403);
  });

  it('a config-file provider removed in the console stays hidden across a restart and says so, until it is reset', async () => {
    upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    expect((await gateway.request('/settings/routes/svc-large-3-2512', { method: 'DELETE' })).status).toBe(200);
    expect((await gateway.request('/settings/providers/upstream', { method: 'DELETE' })).status).toBe(200);
    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config: upstreamConfig(upstream), dataDir });
    expect(await provider('upstream')()).toMatchObject({
      removed: true,
      in_config: true,
      state: 'removed',
      detail: expect.stringContaining('config file'),
    });
    expect((await gateway.request('/settings/providers/upstream/test', { method: 'POST' })).status).toBe(404);
    expect(
      (await gateway.request('/settings/providers', { method: 'POST', json: { id: 'upstream', type: 'openai' } }))
        .status,
    ).toBe(409);

    expect(await json(await gateway.request('/settings/providers/upstream/reset', { method: 'POST' }))).toMatchObject({
      source: 'config',
      removed: false,
      has_api_key: true,
    });
    expect((await gateway.request('/settings/routes/svc-large-3-2512/reset', { method: 'POST' })).status).toBe(200);
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('svc-large-3') })).status).toBe(
      200,
    );
  });

  it('CORS origins, allowed hosts and request-log bodies change without a restart, show their source, and persist', async () => {
    upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const origin = 'https://tool.example';
    const allowOrigin = async () =>
      (await gateway.request('/models', { headers: { origin } })).headers.get('access-control-allow-origin');
    const hostStatus = () =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          `${gateway.url}/status`,
          { headers: { host: 'gateway.example:8080' } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end();
      });
    expect(await allowOrigin()).toBeNull();
    expect(await hostStatus()).toBe(403);
    const before = (await json(await gateway.request('/settings'))).server;
    expect(before.sources).toEqual({
      cors_origins: 'config',
      allowed_hosts: 'config',
      request_log_bodies: 'config',
      request_log_retention_days: 'config',
      trace_content: 'config',
    });

    const patched = await gateway.request('/settings/server', {
      method: 'PATCH',
      json: {
        cors_origins: [origin],
        allowed_hosts: ['gateway.example'],
        request_log_bodies: true,
        request_log_retention_days: 2,
      },
    });
    expect(patched.status).toBe(200);
    expect(await json(patched)).toMatchObject({
      cors_origins: [origin],
      allowed_hosts: ['gateway.example'],
      request_log_bodies: true,
      request_log_retention_days: 2,
      data_dir: gateway.dataDir,
      sources: { cors_origins: 'console', request_log_bodies: 'console' },
    });
    expect(await allowOrigin()).toBe(origin);
    expect(await hostStatus()).toBe(200);

    const logged = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('svc-large-3') });
    const requestId = logged.headers.get('x-request-id');
    const entry = await json(await gateway.request(`/console/requests/${requestId}`));
    expect(entry.request_body).toContain('hello');

    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config: upstreamConfig(upstream), dataDir });
    expect(await allowOrigin()).toBe(origin);
    const reset = await gateway.request('/settings/server', { method: 'PATCH', json: { cors_origins: null } });
    expect(await json(reset)).toMatchObject({
      cors_origins: [],
      request_log_bodies: true,
      sources: { cors_origins: 'config', request_log_bodies: 'console' },
    });
    expect(await allowOrigin()).toBeNull();

    for (const bad of [
      { cors_origins: ['not an origin'] },
      { allowed_hosts: ['a/b'] },
      { request_log_retention_days: -1 },
      { request_log_bodies: 'yes' },
      { unknown: 1 },
    ]) {
      const refused = await gateway.request('/settings/server', { method: 'PATCH', json: bad });
      expect(refused.status).toBe(422);
      expect(await json(refused)).toMatchObject({ object: 'error' });
    }
  });

  it('documents the provider and server routes in the OpenAPI document', async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: upstreamConfig(upstream) });
    const doc = await json(await gateway.request('/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/settings/server',
        '/settings/providers',
        '/settings/providers/{id}',
        '/settings/providers/{id}/reset',
      ]),
    );
    expect(Object.keys(doc.paths['/settings/providers/{id}'])).toEqual(expect.arrayContaining(['put', 'delete']));
  });
});
