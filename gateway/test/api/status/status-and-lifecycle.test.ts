import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatedEngine } from '../../support/gated-engine.js';
import { ADMIN_KEY, json, type TestGateway } from '../../support/start-gateway.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

const CLI = join(import.meta.dirname, '../../../../dist/gateway/src/cli.js');
let gateway: TestGateway | undefined;

describe('GET /status', () => {
  it('answers 503 starting with Retry-After: 10 while an engine warms, then 200 ok', async () => {
    const engine = gatedEngine();
    gateway = await useGateway({
      warm: true,
      extras: { providerFactories: { gated: engine.factory } },
      config: { providers: [{ id: 'local-ocr', type: 'gated' }] },
    });
    const starting = await gateway.request('/status', { key: null });
    expect(starting.status).toBe(503);
    expect(starting.headers.get('retry-after')).toBe('10');
    expect(await json(starting)).toMatchObject({ status: 'starting', checks: { ocr: false } });

    const ocrWhileWarming = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: { image: 'data:image/png;base64,iVBORw0KGgo=' },
    });
    expect(ocrWhileWarming.status).toBe(503);
    expect(ocrWhileWarming.headers.get('retry-after')).toBeTruthy();
    expect((await json(ocrWhileWarming)).code).toBe('engine_warming_up');

    engine.finish();
    await expect
      .poll(async () => (await gateway!.request('/status', { key: null })).status, { timeout: 10_000 })
      .toBe(200);
    const body = await json(await gateway.request('/status', { key: null }));
    expect(body).toMatchObject({ status: 'ok', version: '0.1.0', checks: { ocr: true, asr: false } });
    expect(body.response_ms).toBeGreaterThanOrEqual(0);
    expect(body.uptime_seconds).toBeGreaterThan(0);
  });
});

describe('GET /models and the OpenAPI document', () => {
  it('lists the registry with capabilities, aliases and state', async () => {
    gateway = await useGateway();
    const body = await json(await gateway.request('/models'));
    expect(body.object).toBe('list');
    const ocr = body.data.find((model: { id: string }) => model.id === 'svc-ocr-3-2512');
    expect(ocr).toMatchObject({
      object: 'model',
      owned_by: 'switchyard-local',
      capabilities: ['ocr', 'documents'],
      aliases: [
        'svc-ocr-3',
        'svc-ocr-latest',
        'mistral-ocr-latest',
        'mistral-ocr-2512',
        'mistral-ocr-2505',
        'mistral-ocr-2503',
      ],
      archived: false,
      created: expect.any(Number),
    });
  });

  it('serves /openapi.json from the route schemas and a docs page', async () => {
    gateway = await useGateway();
    const spec = await json(await gateway.request('/openapi.json', { key: null }));
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/v1/chat/completions', '/v1/embeddings', '/status', '/account/me', '/models']),
    );
    expect(spec.paths['/v1/chat/completions'].post.requestBody).toBeDefined();
    const docs = await gateway.request('/docs/', { key: null });
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger/i);
  });
});

describe('fine-tuned model management', () => {
  it('updates metadata, archives, unarchives and deletes an ft: model; base models refuse', async () => {
    const upstream = await useFakeUpstream();
    try {
      gateway = await useGateway({
        config: {
          providers: [{ id: 'up', type: 'openai', base_url: upstream.url }],
          models: [
            { id: 'ft:svc-large-3-2512:acme:7e77', provider: 'up', upstream_model: 'ft', capabilities: ['chat'] },
            { id: 'base-model', provider: 'up', capabilities: ['chat'] },
          ],
        },
      });
      const id = encodeURIComponent('ft:svc-large-3-2512:acme:7e77');
      const patched = await json(
        await gateway.request(`/v1/models/${id}`, { method: 'PATCH', json: { metadata: { team: 'search' } } }),
      );
      expect(patched).toMatchObject({
        id: 'ft:svc-large-3-2512:acme:7e77',
        object: 'model',
        metadata: { team: 'search' },
      });
      const second = await json(
        await gateway.request(`/v1/models/${id}`, {
          method: 'PATCH',
          json: { metadata: { team: null, owner: 'ada' } },
        }),
      );
      expect(second.metadata).toEqual({ owner: 'ada' });
      expect(await json(await gateway.request(`/v1/models/${id}/archive`, { method: 'POST' }))).toEqual({
        id: 'ft:svc-large-3-2512:acme:7e77',
        object: 'model',
        archived: true,
      });
      const archivedUse = await gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'ft:svc-large-3-2512:acme:7e77', messages: [{ role: 'user', content: 'x' }] },
      });
      expect(archivedUse.status).toBe(404);
      expect((await json(archivedUse)).code).toBe('model_archived');
      expect((await json(await gateway.request(`/v1/models/${id}/archive`, { method: 'DELETE' }))).archived).toBe(
        false,
      );
      expect(
        (
          await gateway.request('/v1/chat/completions', {
            method: 'POST',
            json: { model: 'ft:svc-large-3-2512:acme:7e77', messages: [{ role: 'user', content: 'x' }] },
          })
        ).status,
      ).toBe(200);
      const deleted = await json(await gateway.request(`/v1/models/${id}`, { method: 'DELETE' }));
      expect(deleted).toEqual({ id: 'ft:svc-large-3-2512:acme:7e77', object: 'model', deleted: true });
      expect((await gateway.request(`/v1/models/${id}`)).status).toBe(404);
      const base = await gateway.request('/v1/models/base-model/archive', { method: 'POST' });
      expect(base.status).toBe(422);
    } finally {
      await upstream.close();
    }
  });
});

describe('the console request log', () => {
  it('keeps recent requests with prefix, status and model, and streams new ones live (Owner only)', async () => {
    gateway = await useGateway();
    const keyResponse = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'member' } }),
    );
    const feed = await gateway.request('/console/requests/stream');
    expect(feed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = feed.body!.getReader();
    await gateway.request('/models', { key: keyResponse.key });
    let received = '';
    while (!received.includes('"path":"/models"')) received += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(received).toContain(keyResponse.prefix);

    const recent = await json(await gateway.request('/console/requests?limit=5'));
    expect(recent.data[0]).toMatchObject({
      method: 'GET',
      path: '/models',
      status: 200,
      key_prefix: keyResponse.prefix,
      latency_ms: expect.any(Number),
    });
    expect(JSON.stringify(recent)).not.toContain(ADMIN_KEY);
    expect((await gateway.request('/console/requests', { key: keyResponse.key })).status).toBe(403);
  });
});

describe('request log bodies', () => {
  it('keeps bodies when configured, size-capped, with keys redacted', async () => {
    gateway = await useGateway({ config: { server: { request_log_bodies: true } } });
    const created = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'logged-key' } }),
    );
    const recent = await json(await gateway.request('/console/requests?limit=1'));
    expect(recent.data[0].request_body).toContain('logged-key');
    expect(recent.data[0].response_body).toContain('[redacted]');
    expect(JSON.stringify(recent)).not.toContain(created.key);
  });
});

describe('the command line: npm run serve', () => {
  function runCli(env: Record<string, string>) {
    const child = spawn(process.execPath, [CLI], {
      env: { ...process.env, GATEWAY_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, output: () => ({ stdout, stderr }) };
  }

  it('exits non-zero naming the file, the field and the problem for a bad config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-cli-'));
    try {
      const config = join(dir, 'bad.yaml');
      writeFileSync(config, 'models:\n  - id: m\n    provider: nowhere\n    capabilities: [chat]\n');
      const run = runCli({ GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dir, GATEWAY_PORT: '0' });
      expect(await run.exited).toBe(1);
      expect(run.output().stderr).toMatch(/bad\.yaml: models\[0\]\.provider: no provider with id "nowhere"/);

      writeFileSync(config, 'server:\n  body_limit_mb: lots\n');
      const typed = runCli({ GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dir, GATEWAY_PORT: '0' });
      expect(await typed.exited).toBe(1);
      expect(typed.output().stderr).toMatch(/bad\.yaml: server\.body_limit_mb: /);

      const port = runCli({ GATEWAY_DATA_DIR: dir, GATEWAY_PORT: 'eighty' });
      expect(await port.exited).toBe(1);
      expect(port.output().stderr).toMatch(/GATEWAY_PORT: "eighty" is not a port number/);

      // A port already taken (a Switchyard already running, say) is named, with what to do, not a stack trace.
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      try {
        const taken = runCli({ GATEWAY_DATA_DIR: dir, GATEWAY_PORT: String((holder.address() as AddressInfo).port) });
        expect(await taken.exited).toBe(1);
        expect(taken.output().stderr).toMatch(/127\.0\.0\.1:\d+ is already in use .*GATEWAY_PORT/);
        expect(taken.output().stderr).not.toMatch(/\n\s+at /);
      } finally {
        holder.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs its URL, finishes an in-flight request on SIGTERM and exits 0 with the data kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-cli-'));
    const upstream = await useFakeUpstream();
    try {
      const config = join(dir, 'config.yaml');
      writeFileSync(
        config,
        `providers:\n  - id: up\n    type: openai\n    base_url: ${upstream.url}\nmodels:\n  - id: slow\n    provider: up\n    capabilities: [chat]\nserver:\n  warm_engines: false\n`,
      );
      const run = runCli({
        GATEWAY_CONFIG: config,
        GATEWAY_DATA_DIR: dir,
        GATEWAY_PORT: '0',
        GATEWAY_ADMIN_KEY: ADMIN_KEY,
      });
      await expect
        .poll(() => run.output().stdout, { timeout: 20_000 })
        .toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output().stdout)![1];

      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 300 } });
      const inFlight = fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'slow', messages: [{ role: 'user', content: 'finish me please' }] }),
      });
      // The first request of a fresh process: a second is not much on a busy machine.
      await expect.poll(() => upstream.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
      run.child.kill('SIGTERM');
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect((await json(response)).choices[0].message.content).toBe('finish me please');
      expect(await run.exited).toBe(0);

      const again = await useGateway({ dataDir: dir });
      gateway = again;
      const usage = await json(
        await again.request('/account/usage', { key: null, headers: { 'x-api-key': ADMIN_KEY } }),
      );
      expect(usage.usage.by_model.find((entry: { key: string }) => entry.key === 'slow').requests).toBe(1);
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
