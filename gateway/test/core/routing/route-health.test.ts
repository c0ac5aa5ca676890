import { describe, expect, it } from 'vitest';
import type { BreakerSnapshot } from '../../../src/core/routing/circuit-breaker.js';
import { RouteHealth } from '../../../src/core/routing/route-health.js';
import type { EngineStatus, ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';

const closed: BreakerSnapshot = { state: 'closed', consecutive_failures: 0, retry_after_seconds: null };

function provider(status: EngineStatus, modelStatus?: (model: string) => EngineStatus): ProviderInstance {
  return {
    id: 'p',
    type: 't',
    capabilities: {},
    status: () => status,
    ...(modelStatus ? { modelStatus } : {}),
    close: async () => undefined,
  };
}

function health(options: {
  upstream: boolean;
  breaker?: BreakerSnapshot;
  answered?: boolean;
  test?: { ok: boolean; latency_ms: number; error?: string };
}) {
  return new RouteHealth({
    breaker: () => options.breaker ?? closed,
    answered: () => options.answered ?? false,
    isUpstream: () => options.upstream,
    lastTest: () => options.test,
  });
}

describe('RouteHealth: one verdict for a provider and its routes', () => {
  it('calls an upstream nobody has reached "not_tested", not "ready", and "ready" once a test passed', () => {
    expect(health({ upstream: true }).provider(provider({ state: 'ready' })).state).toBe('not_tested');
    expect(
      health({ upstream: true, test: { ok: true, latency_ms: 3 } }).provider(provider({ state: 'ready' })),
    ).toEqual({ state: 'ready', reason: 'tested · 3 ms' });
    expect(health({ upstream: true, answered: true }).provider(provider({ state: 'ready' }))).toEqual({
      state: 'ready',
      reason: 'its last request succeeded',
    });
  });

  it('shows a failed test, failing requests and an open breaker as what they are', () => {
    expect(
      health({ upstream: true, test: { ok: false, latency_ms: 3, error: 'connect ECONNREFUSED' } }).provider(
        provider({ state: 'ready' }),
      ),
    ).toEqual({ state: 'unreachable', reason: 'the last test failed: connect ECONNREFUSED' });
    expect(
      health({ upstream: true, breaker: { ...closed, consecutive_failures: 2 } }).provider(
        provider({ state: 'ready' }),
      ),
    ).toEqual({ state: 'failing', reason: '2 failed requests in a row' });
    expect(
      health({ upstream: true, breaker: { state: 'open', consecutive_failures: 5, retry_after_seconds: 7 } }).provider(
        provider({ state: 'ready' }),
      ),
    ).toEqual({ state: 'unreachable', reason: 'circuit breaker open after 5 failed requests; next try in 7 s' });
  });

  it("keeps a local engine's own state, and a route's model state on an engine that loads models one by one", () => {
    expect(health({ upstream: false }).provider(provider({ state: 'cold' })).state).toBe('cold');
    expect(health({ upstream: false }).provider(provider({ state: 'unavailable', detail: 'no model' }))).toEqual({
      state: 'unavailable',
      reason: 'no model',
    });
    const pool = provider({ state: 'ready' }, (model) =>
      model === 'a' ? { state: 'loading' } : { state: 'unavailable', detail: 'bad file' },
    );
    expect(health({ upstream: false }).route({ provider: pool, upstreamModel: 'a' }).state).toBe('loading');
    expect(health({ upstream: false }).route({ provider: pool, upstreamModel: 'b' })).toEqual({
      state: 'unavailable',
      reason: 'bad file',
    });
  });

  it('a capability is the first route that can serve it, else why the first cannot, else no_route', () => {
    const routeHealth = health({ upstream: false });
    const missing = {
      id: 'svc-transcribe',
      provider: provider({ state: 'unavailable', detail: 'no speech model' }),
      upstreamModel: '',
    };
    const ready = { id: 'other', provider: provider({ state: 'ready' }), upstreamModel: '' };
    expect(routeHealth.capability('transcription', [missing, ready]).state).toBe('ready');
    expect(routeHealth.capability('transcription', [missing])).toEqual({
      state: 'unavailable',
      reason: 'svc-transcribe: no speech model',
    });
    expect(routeHealth.capability('transcription', [])).toEqual({
      state: 'no_route',
      reason: 'no model route serves transcription',
    });
  });
});
