import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { buildGateway } from '../../../src/app.js';
import { loadGatewayOptions } from '../../../src/config/load-options.js';
import { gatedEngine } from '../../support/gated-engine.js';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { parsePrometheusText, sampleValue } from '../../support/prometheus-text.js';
import { readSse } from '../../support/sse.js';
import { ADMIN_KEY, json, type TestGateway } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';
import { upstreamConfig } from '../../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

let gateway: TestGateway | undefined;
let upstream: FakeUpstream | undefined;

async function scrape(target: TestGateway) {
  const response = await target.request('/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

describe('health probes', () => {
  it('liveness answers 200 at once; readiness 503 with Retry-After while engines warm, then 200; no key, not logged', async () => {
    const engine = gatedEngine();
    gateway = await useGateway({
      warm: true,
      extras: { providerFactories: { gated: engine.factory } },
      config: { providers: [{ id: 'local-ocr', type: 'gated' }] },
    });

    const live = await gateway.request('/health/liveness', { key: null });
    expect(live.status).toBe(200);
    expect(await json(live)).toEqual({ status: 'ok' });

    const starting = await gateway.request('/health/readiness', { key: null });
    expect(starting.status).toBe(503);
    expect(starting.headers.get('retry-after')).toBe('10');
    expect(await json(starting)).toEqual({
      status: 'starting',
      checks: { database: 'ok', engines: 'starting' },
      warming_engines: ['local-ocr'],
    });

    engine.finish();
    await expect
      .poll(async () => (await gateway!.request('/health/readiness', { key: null })).status, { timeout: 10_000 })
      .toBe(200);
    expect(await json(await gateway.request('/health/readiness', { key: null }))).toEqual({
      status: 'ready',
      checks: { database: 'ok', engines: 'ok' },
      warming_engines: [],
    });

    await gateway.request('/v1/models');
    const log = await json(await gateway.request('/console/requests?limit=50'));
    const paths = log.data.map((entry: { path: string }) => entry.path);
    expect(paths).toContain('/v1/models');
    expect(paths.filter((path: string) => path.startsWith('/health'))).toEqual([]);
  });

  it('readiness is 503 unavailable when the database does not answer', async () => {
    gateway = await useGateway();
    await gateway.control.db.close();
    const response = await gateway.request('/health/readiness', { key: null });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await json(response)).checks.database).toBe('unreachable');
    expect((await gateway.request('/health/liveness', { key: null })).status).toBe(200);
    // Closing flushes to the database this test closed: expected to fail; the folder goes anyway.
    await gateway.app.close().catch(() => undefined);
    rmSync(gateway.dataDir, { recursive: true, force: true });
    gateway = undefined;
  });
});

describe('the OpenAPI document', () => {
  it('describes the probes, /metrics, the breaker on /status and breaker_state on /models', async () => {
    gateway = await useGateway();
    const document = await json(await gateway.request('/openapi.json', { key: null }));
    for (const path of ['/health/liveness', '/health/readiness', '/metrics'])
      expect(Object.keys(document.paths[path].get.responses)).toContain('200');
    expect(Object.keys(document.paths['/health/readiness'].get.responses)).toContain('503');
    const status = document.paths['/status'].get.responses['200'].content['application/json'].schema;
    const breaker = status.properties.providers.items.properties.breaker;
    expect(breaker.required).toEqual(['state', 'consecutive_failures', 'retry_after_seconds']);
    expect(JSON.stringify(breaker.properties.state)).toMatch(/closed.*open.*half_open/);
    expect(status.required).toContain('instance_id');
    const model =
      document.paths['/v1/models'].get.responses['200'].content['application/json'].schema.properties.data.items;
    expect(JSON.stringify(model)).toContain('breaker_state');
  });
});

describe('GET /metrics', () => {
  it('counts real requests: HTTP by route and status, GenAI durations, time to first token, tokens by type, errors by type, breaker state', async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({ config: upstreamConfig(upstream) });
    const chat = { model: 'svc-large-3', messages: [{ role: 'user', content: 'one two three' }] };

    const plain = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat });
    expect(plain.status).toBe(200);
    const { usage } = await json(plain);
    const stream = await gateway.request('/v1/chat/completions', { method: 'POST', json: { ...chat, stream: true } });
    expect((await readSse(stream)).at(-1)).toBe('[DONE]');
    expect(
      (await gateway.request('/v1/chat/completions', { method: 'POST', json: { ...chat, model: 'no-such-model' } }))
        .status,
    ).toBe(404);
    expect(
      (await gateway.request('/v1/chat/completions', { method: 'POST', json: { ...chat, max_tokens: 'lots' } })).status,
    ).toBe(422);

    const samples = await scrape(gateway);
    const chatRoute = { http_request_method: 'POST', http_route: '/v1/chat/completions' };
    expect(
      sampleValue(samples, 'http_server_request_duration_seconds_count', {
        ...chatRoute,
        http_response_status_code: '200',
      }),
    ).toBe(2);
    expect(
      sampleValue(samples, 'http_server_request_duration_seconds_count', {
        ...chatRoute,
        http_response_status_code: '404',
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'http_server_request_duration_seconds_count', {
        ...chatRoute,
        http_response_status_code: '422',
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'switchyard_errors_total', {
        error_type: 'model_not_found',
        http_response_status_code: '404',
      }),
    ).toBe(1);

    const served = {
      gen_ai_operation_name: 'chat',
      gen_ai_request_model: 'svc-large-3-2512',
      gen_ai_provider_name: 'openai',
      switchyard_provider_id: 'upstream',
    };
    expect(sampleValue(samples, 'gen_ai_server_request_duration_seconds_count', { ...served, error_type: '' })).toBe(2);
    expect(
      sampleValue(samples, 'gen_ai_server_request_duration_seconds_count', {
        gen_ai_operation_name: 'chat',
        gen_ai_request_model: 'unknown',
        error_type: 'model_not_found',
      }),
    ).toBe(1);
    expect(sampleValue(samples, 'gen_ai_server_time_to_first_token_seconds_count', served)).toBe(1);
    expect(sampleValue(samples, 'gen_ai_server_time_to_first_token_seconds_sum', served)).toBeGreaterThan(0);
    expect(sampleValue(samples, 'gen_ai_client_operation_duration_seconds_count', { ...served, error_type: '' })).toBe(
      2,
    );
    // Two identical answers: twice the usage the client was told.
    expect(usage.completion_tokens).toBe(3);
    expect(sampleValue(samples, 'gen_ai_client_token_usage_sum', { ...served, gen_ai_token_type: 'input' })).toBe(
      2 * usage.prompt_tokens,
    );
    expect(sampleValue(samples, 'gen_ai_client_token_usage_sum', { ...served, gen_ai_token_type: 'output' })).toBe(
      2 * usage.completion_tokens,
    );
    expect(sampleValue(samples, 'gen_ai_client_token_usage_count', { ...served, gen_ai_token_type: 'output' })).toBe(2);
    expect(
      sampleValue(samples, 'switchyard_provider_breaker_state', {
        switchyard_provider_id: 'upstream',
        state: 'closed',
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'switchyard_provider_breaker_state', { switchyard_provider_id: 'upstream', state: 'open' }),
    ).toBe(0);
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('shows an open breaker and the failures that opened it', async () => {
    upstream = await useFakeUpstream();
    const config = upstreamConfig(upstream);
    config.providers[0].breaker = { failure_threshold: 2, cooldown_ms: 60_000 };
    gateway = await useGateway({ config });
    upstream.setBehaviour({ failure: { type: 'status', status: 500 } });
    const chat = { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] };
    for (let i = 0; i < 2; i++)
      expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat })).status).toBe(502);
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat })).status).toBe(503);
    const samples = await scrape(gateway);
    expect(
      sampleValue(samples, 'switchyard_provider_breaker_state', { switchyard_provider_id: 'upstream', state: 'open' }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'switchyard_provider_breaker_consecutive_failures', { switchyard_provider_id: 'upstream' }),
    ).toBe(2);
    expect(
      sampleValue(samples, 'switchyard_errors_total', {
        error_type: 'provider_circuit_open',
        http_response_status_code: '503',
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'gen_ai_client_operation_duration_seconds_count', {
        gen_ai_provider_name: 'openai',
        switchyard_provider_id: 'upstream',
        error_type: 'upstream_error',
      }),
    ).toBe(2);
  });

  it('shows the local llama.cpp queue of a model: one running, the others waiting, then empty', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
    mkdirSync(join(dataDir, 'models'));
    await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-chat.gguf'), { seed: 3 });
    gateway = await useGateway({ dataDir, config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] } });
    try {
      const queue = { switchyard_provider_id: 'local-llm', queue: 'tiny-chat' };
      const chat = {
        model: 'tiny-chat',
        messages: [{ role: 'user', content: 'Hello' }],
        max_tokens: 30,
        temperature: 0,
      };
      // Load the engine and the model first (requests meanwhile would get 503 engine_warming_up).
      expect(
        (await gateway.request('/v1/chat/completions', { method: 'POST', json: { ...chat, max_tokens: 1 } })).status,
      ).toBe(200);
      const answers = Promise.all(
        [0, 1, 2, 3].map(() => gateway!.request('/v1/chat/completions', { method: 'POST', json: chat })),
      );
      await expect
        .poll(
          async () => {
            const samples = await scrape(gateway!);
            return [
              sampleValue(samples, 'switchyard_engine_queue_requests', { ...queue, state: 'running' }),
              sampleValue(samples, 'switchyard_engine_queue_requests', { ...queue, state: 'waiting' }) > 0,
            ];
          },
          { timeout: 10_000, interval: 20 },
        )
        .toEqual([1, true]);
      expect((await answers).map((response) => response.status)).toEqual([200, 200, 200, 200]);
      const after = await scrape(gateway);
      expect(sampleValue(after, 'switchyard_engine_queue_requests', { ...queue, state: 'running' })).toBe(0);
      expect(sampleValue(after, 'switchyard_engine_queue_requests', { ...queue, state: 'waiting' })).toBe(0);
    } finally {
      await gateway.close();
      gateway = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('needs an Owner key or the metrics token also on loopback; the health probes stay public', async () => {
    const token = 'scraper-token-0123456789';
    gateway = await useGateway({ config: { server: { metrics_token: token } } });
    const anonymous = await gateway.request('/metrics', { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await json(anonymous)).toMatchObject({ object: 'error', code: 'missing_api_key' });
    expect((await json(await gateway.request('/metrics', { key: 'not-the-token-nor-a-key' }))).code).toBe(
      'invalid_api_key',
    );
    const member = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } }),
    );
    const refused = await gateway.request('/metrics', { key: member.key });
    expect(refused.status).toBe(403);
    expect((await json(refused)).message).toContain('metrics token');
    for (const key of [ADMIN_KEY, token]) {
      const answer = await gateway.request('/metrics', { key });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('# TYPE http_server_request_duration_seconds histogram');
    }
    // The token opens /metrics only.
    expect((await gateway.request('/v1/models', { key: token })).status).toBe(401);
    for (const path of ['/health/liveness', '/health/readiness'])
      expect((await gateway.request(path, { key: null })).status).toBe(200);
  });

  it('takes the metrics token from GATEWAY_METRICS_TOKEN over the config file, and refuses a short one', async () => {
    gateway = await useGateway({
      env: { GATEWAY_METRICS_TOKEN: 'from-the-environment-42' },
      config: { server: { metrics_token: 'from-the-config-file-42' } },
    });
    expect((await gateway.request('/metrics', { key: 'from-the-environment-42' })).status).toBe(200);
    expect((await gateway.request('/metrics', { key: 'from-the-config-file-42' })).status).toBe(401);
    await expect(loadGatewayOptions({ env: { GATEWAY_METRICS_TOKEN: 'short' } })).rejects.toThrow(
      /GATEWAY_METRICS_TOKEN: must be at least 16 characters/,
    );
  });

  it('needs an Owner key when the gateway is bound to a non-loopback address', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
    const configPath = join(dataDir, 'config.yaml');
    writeFileSync(configPath, stringify({ server: { warm_engines: false } }));
    const options = await loadGatewayOptions({
      env: { GATEWAY_LOG_LEVEL: 'silent' },
      overrides: { dataDir, port: 0, host: '0.0.0.0', adminKey: ADMIN_KEY, configPath },
    });
    const { app } = await buildGateway(options);
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/metrics`;
      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect((await json(anonymous)).code).toBe('missing_api_key');
      const owner = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(owner.status).toBe(200);
      expect(await owner.text()).toContain('# TYPE http_server_request_duration_seconds histogram');
      expect((await fetch(url.replace('/metrics', '/health/liveness'))).status).toBe(200);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
