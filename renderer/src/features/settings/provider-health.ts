import type { ProviderCheck, ProviderSetting } from './api/settings-api';

export interface ProviderHealth {
  label: string;
  tone: 'ok' | 'warn' | 'error' | 'neutral';
  /** One line under the badge: why, and what to do. */
  note?: string;
}

/**
 * What the Settings page says about a provider. A local engine knows its own state. An upstream
 * (one with a base URL) always reports "ready" to the gateway, whose verdict on its health is the
 * circuit breaker's, across requests: until a request or a test has reached it, it is "not tested",
 * not "ready" (a wrong URL looked ready until Test was pressed).
 */
export function providerHealth(provider: Pick<ProviderSetting, 'state' | 'detail' | 'base_url' | 'breaker' | 'removed'>, check: ProviderCheck | undefined): ProviderHealth {
  if (provider.removed) return { label: 'removed', tone: 'error', note: provider.detail };
  const { breaker } = provider;
  if (breaker.state === 'open') return { label: 'unreachable', tone: 'error', note: `circuit breaker open${typeof breaker.retry_after_seconds === 'number' ? ` · next try in ${breaker.retry_after_seconds} s` : ''}` };
  if (provider.state === 'unavailable') return { label: 'unavailable', tone: 'error', note: provider.detail };
  if (check && !check.ok) return { label: 'unreachable', tone: 'error', note: 'the last test failed' };
  if (breaker.consecutive_failures > 0) return { label: 'failing', tone: 'warn', note: `${breaker.consecutive_failures} failed request${breaker.consecutive_failures === 1 ? '' : 's'} in a row` };
  if (!provider.base_url) return { label: provider.state, tone: provider.state === 'ready' ? 'ok' : 'neutral' };
  if (check) return { label: 'ready', tone: 'ok', note: `tested · ${check.latency_ms} ms` };
  return { label: 'not tested', tone: 'neutral', note: 'no failed request so far; Test calls it once' };
}
