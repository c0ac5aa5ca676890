import { describe, expect, it } from 'vitest';
import { providerHealth } from './provider-health';

const closed = { state: 'closed' as const, consecutive_failures: 0, retry_after_seconds: null };
const upstream = { state: 'ready', upstream: true, breaker: closed, removed: false };
const failedCheck = { ok: false, checked: 'request' as const, model: 'm', capability: 'chat' as const, latency_ms: 3, error: 'connect ECONNREFUSED' };

describe('providerHealth', () => {
  it('calls an upstream nobody has reached "not tested", not "ready"', () => {
    expect(providerHealth(upstream, undefined)).toMatchObject({ label: 'not tested', tone: 'neutral' });
  });

  it('shows a failed test, failing requests and an open breaker as what they are', () => {
    expect(providerHealth(upstream, failedCheck)).toMatchObject({ label: 'unreachable', tone: 'error' });
    expect(providerHealth({ ...upstream, breaker: { ...closed, consecutive_failures: 2 } }, undefined)).toMatchObject({ label: 'failing', tone: 'warn', note: '2 failed requests in a row' });
    expect(providerHealth({ ...upstream, breaker: { state: 'open', consecutive_failures: 5, retry_after_seconds: 7 } }, undefined)).toMatchObject({ label: 'unreachable', note: 'circuit breaker open · next try in 7 s' });
  });

  it('calls an upstream ready once a test passed, and keeps a local engine\'s own state', () => {
    expect(providerHealth(upstream, { ok: true, latency_ms: 3 })).toMatchObject({ label: 'ready', tone: 'ok' });
    expect(providerHealth({ state: 'cold', upstream: false, breaker: closed, removed: false }, undefined)).toMatchObject({ label: 'cold', tone: 'neutral' });
    expect(providerHealth({ state: 'unavailable', detail: 'no model', upstream: false, breaker: closed, removed: false }, undefined)).toMatchObject({ label: 'unavailable', tone: 'error', note: 'no model' });
  });
});
