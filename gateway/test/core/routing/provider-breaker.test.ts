import { describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { json, type TestGateway } from '../../support/start-gateway.js';
import { upstreamConfig } from '../../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

const chat = (model = 'svc-large-3-2512', text = 'hello there') => ({
  model,
  messages: [{ role: 'user', content: text }],
});

/** The fake upstream's config with breaker settings on its provider and an extra model on the same provider. */
function configWithBreaker(
  upstream: FakeUpstream,
  breaker?: Record<string, number>,
  extra: { fallbackUpstream?: FakeUpstream } = {},
) {
  const config = upstreamConfig(upstream, extra);
  if (breaker) config.providers[0].breaker = breaker;
  config.models.push({
    id: 'poisoned-model',
    provider: 'upstream',
    upstream_model: 'poison',
    capabilities: ['chat'],
    max_retries: 2,
  });
  return config;
}

/** The breaker of the provider "upstream" as /status reports it. */
async function breakerOf(
  gateway: TestGateway,
): Promise<{ state: string; consecutive_failures: number; retry_after_seconds: number | null }> {
  return (await json(await gateway.request('/status'))).providers.find((p: { id: string }) => p.id === 'upstream')
    .breaker;
}

/**
 * Waits for the cool-down to end: /status says half_open. Cool-downs here are long enough (2-3 s) for
 * the assertions made while the breaker is open on a loaded machine; the wait is on the state, not a clock.
 */
async function halfOpen(gateway: TestGateway): Promise<void> {
  await expect.poll(async () => (await breakerOf(gateway)).state, { timeout: 10_000, interval: 50 }).toBe('half_open');
}

describe('circuit breaker per provider', () => {
  let upstream: FakeUpstream;
  let backup: FakeUpstream | undefined;
  let gateway: TestGateway;

  it('one poisoned request (its upstream always resets the connection, retried twice) never stops other requests to the provider', async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({ config: configWithBreaker(upstream) });
    upstream.setBehaviour({ model: 'poison', failure: { type: 'reset_connection' } });

    const poisoned = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('poisoned-model') });
    expect(poisoned.status).toBe(502);
    expect((await json(poisoned)).code).toBe('upstream_unreachable');
    expect(upstream.requests.filter((r) => (r.body as { model?: string }).model === 'poison')).toHaveLength(3);

    for (let i = 0; i < 3; i++) {
      const healthy = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
      expect(healthy.status).toBe(200);
      expect((await json(healthy)).choices[0].message.content).toBe('hello there');
    }
    const again = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('poisoned-model') });
    expect(again.status).toBe(502);
    const healthy = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
    expect(healthy.status).toBe(200);

    const status = await json(await gateway.request('/status'));
    expect(status.providers.find((p: { id: string }) => p.id === 'upstream')).toEqual({
      id: 'upstream',
      type: 'openai',
      kind: 'upstream',
      state: 'ready',
      breaker: { state: 'closed', consecutive_failures: 0, retry_after_seconds: null },
      health: { state: 'ready', reason: 'its last request succeeded' },
    });
  });

  it('opens after the threshold of failed requests (resets, garbage bodies, slow first bytes), answers 503 naming the provider without calling it, and serves again once the upstream recovers', async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({
      config: configWithBreaker(upstream, { failure_threshold: 3, cooldown_ms: 3_000, max_cooldown_ms: 3_000 }),
    });

    // Each failing request is tried three times (max_retries 2); a slow first byte is not retried.
    const failures = [
      { type: 'reset_connection' as const },
      { type: 'malformed_body' as const },
      { type: 'hang_before_headers' as const },
    ];
    for (const failure of failures) {
      upstream.setBehaviour({ failure });
      const failed = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
      expect([502, 504]).toContain(failed.status);
    }
    const reached = upstream.requests.length;
    expect(reached).toBe(7);

    const refused = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('poisoned-model') });
    expect(refused.status).toBe(503);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    const body = await json(refused);
    expect(body).toMatchObject({ object: 'error', type: 'server_error', code: 'provider_circuit_open', param: null });
    expect(body.message).toContain('"upstream"');
    expect(upstream.requests).toHaveLength(reached);

    const models = await json(await gateway.request('/v1/models'));
    expect(models.data.find((m: { id: string }) => m.id === 'svc-large-3-2512').breaker_state).toBe('open');
    expect(await breakerOf(gateway)).toEqual({
      state: 'open',
      consecutive_failures: 3,
      retry_after_seconds: expect.any(Number),
    });
    expect((await breakerOf(gateway)).retry_after_seconds).toBeLessThanOrEqual(retryAfter);

    upstream.setBehaviour(null);
    await halfOpen(gateway);
    const served = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
    expect(served.status).toBe(200);
    expect(
      (await json(await gateway.request('/status'))).providers.find((p: { id: string }) => p.id === 'upstream').breaker
        .state,
    ).toBe('closed');
    expect(
      (await json(await gateway.request('/v1/models'))).data.every(
        (m: { breaker_state: string }) => m.breaker_state === 'closed',
      ),
    ).toBe(true);
  });

  it('an upstream that goes down (connection refused) and comes back on the same address is served again after the cool-down', async () => {
    upstream = await useFakeUpstream();
    const port = Number(new URL(upstream.url).port);
    gateway = await useGateway({
      config: configWithBreaker(upstream, { failure_threshold: 2, cooldown_ms: 2_000, max_cooldown_ms: 2_000 }),
    });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(200);
    await upstream.close();

    for (let i = 0; i < 2; i++) {
      const refused = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
      expect(refused.status).toBe(502);
      expect((await json(refused)).message).toContain('ECONNREFUSED');
    }
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(503);
    // Still down at the first trial: open again (the cool-down is capped at 2 s here).
    await halfOpen(gateway);
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(502);
    expect((await json(await gateway.request('/status'))).providers[0].breaker.state).toBe('open');

    upstream = await useFakeUpstream({ port });
    await expect
      .poll(async () => (await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(200);
    expect((await json(await gateway.request('/status'))).providers[0].breaker).toEqual({
      state: 'closed',
      consecutive_failures: 0,
      retry_after_seconds: null,
    });
  });

  it('half-open lets exactly one trial request through; the others get 503 until it succeeds', async () => {
    upstream = await useFakeUpstream();
    const config = configWithBreaker(upstream, { failure_threshold: 1, cooldown_ms: 200, max_cooldown_ms: 1_000 });
    // The trial's halves come 1 s apart: an idle timeout far beyond that (not the usual 1.5 s), so a late timer cannot fail the trial.
    config.providers[0].timeouts = { connect: 2000, first_byte: 1500, idle: 5000 };
    gateway = await useGateway({ config });
    upstream.setBehaviour({ failure: { type: 'status', status: 500 } });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(502);
    await halfOpen(gateway);

    // The trial takes 2 s (two halves, 1 s apart), ample time for the others to be refused meanwhile.
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 1_000 } });
    const before = upstream.requests.length;
    const trial = gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
    while (upstream.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    const others = await Promise.all(
      [0, 1, 2].map(() => gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })),
    );
    expect(others.map((r) => r.status)).toEqual([503, 503, 503]);
    expect((await json(others[0])).code).toBe('provider_circuit_open');
    expect((await trial).status).toBe(200);
    expect(upstream.requests.length).toBe(before + 1);
    upstream.setBehaviour(null);
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(200);
  });

  it('Retry-After and /status give the remaining cool-down, rounded up', async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({
      config: configWithBreaker(upstream, { failure_threshold: 1, cooldown_ms: 30_000, max_cooldown_ms: 600_000 }),
    });
    upstream.setBehaviour({ failure: { type: 'status', status: 503 } });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(502);
    const refused = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
    expect(refused.status).toBe(503);
    const retryAfter = Number(refused.headers.get('retry-after'));
    // Rounded up: 30 at once, less only as the cool-down runs (a loaded machine may take seconds to ask).
    expect(retryAfter).toBeGreaterThanOrEqual(25);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect((await json(refused)).message).toContain(`in ${retryAfter} s`);
    const breaker = (await json(await gateway.request('/status'))).providers[0].breaker;
    expect(breaker.retry_after_seconds).toBeGreaterThanOrEqual(25);
    expect(breaker.retry_after_seconds).toBeLessThanOrEqual(retryAfter);
  });

  it('client errors (4xx) and client aborts do not count as failures', async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({
      config: configWithBreaker(upstream, { failure_threshold: 2, cooldown_ms: 60_000, max_cooldown_ms: 60_000 }),
    });
    upstream.setBehaviour({ failure: { type: 'status', status: 400 } });
    for (let i = 0; i < 4; i++)
      expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(422);
    upstream.setBehaviour({ failure: { type: 'hang_before_headers' } });
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      const before = upstream.requests.length;
      const pending = gateway
        .request('/v1/chat/completions', { method: 'POST', json: chat(), signal: controller.signal })
        .catch(() => undefined);
      while (upstream.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      await pending;
      await upstream.requests.at(-1)!.settled;
    }
    upstream.setBehaviour(null);
    expect((await json(await gateway.request('/status'))).providers[0].breaker).toEqual({
      state: 'closed',
      consecutive_failures: 0,
      retry_after_seconds: null,
    });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(200);
  });

  it('while a provider is open its models fall back to their fallbacks', async () => {
    upstream = await useFakeUpstream();
    backup = await useFakeUpstream();
    gateway = await useGateway({
      config: configWithBreaker(
        upstream,
        { failure_threshold: 1, cooldown_ms: 60_000, max_cooldown_ms: 60_000 },
        { fallbackUpstream: backup },
      ),
    });
    upstream.setBehaviour({ failure: { type: 'reset_connection' } });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(502);
    const reached = upstream.requests.length;
    const served = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat('primary-model') });
    expect(served.status).toBe(200);
    expect((await json(served)).model).toBe('backup-model');
    expect(upstream.requests).toHaveLength(reached);
    expect(backup.requests).toHaveLength(1);
  });
});
