import type { GatewayStatus } from './gateway-types';

type Breaker = GatewayStatus['providers'][number]['breaker'];

/** What providerHealth reads of a provider: Settings' and Status' provider entries both fit. */
export interface ProviderHealthInput {
  state: string;
  detail?: string;
  /** An upstream HTTP provider (it has a base URL; /status says kind: 'upstream'). */
  upstream: boolean;
  breaker: Breaker;
  removed?: boolean;
}

/** The part of a provider test's result that its health depends on. */
export interface ProviderTestResult {
  ok: boolean;
  latency_ms: number;
}

export interface ProviderHealth {
  label: string;
  tone: 'ok' | 'warn' | 'error' | 'neutral';
  /** One line under the badge: why, and what to do. */
  note?: string;
}

export const HEALTH_TONE_CLASS = { ok: 'badge-ok', warn: 'badge-warn', error: 'badge-error', neutral: '' } as const;

/**
 * What the console says about a provider (Settings and Status). A local engine knows its own state.
 * An upstream always reports "ready" to the gateway, whose verdict on its health is the circuit
 * breaker's, across requests: until a request or a test has reached it, it is "not tested", not
 * "ready" (a wrong URL looked ready until Test was pressed).
 */
export function providerHealth(provider: ProviderHealthInput, check: ProviderTestResult | undefined): ProviderHealth {
  if (provider.removed) return { label: 'removed', tone: 'error', note: provider.detail };
  const { breaker } = provider;
  if (breaker.state === 'open') return { label: 'unreachable', tone: 'error', note: `circuit breaker open${typeof breaker.retry_after_seconds === 'number' ? ` · next try in ${breaker.retry_after_seconds} s` : ''}` };
  if (provider.state === 'unavailable') return { label: 'unavailable', tone: 'error', note: provider.detail };
  if (check && !check.ok) return { label: 'unreachable', tone: 'error', note: 'the last test failed' };
  if (breaker.consecutive_failures > 0) return { label: 'failing', tone: 'warn', note: `${breaker.consecutive_failures} failed request${breaker.consecutive_failures === 1 ? '' : 's'} in a row` };
  if (!provider.upstream) return { label: provider.state, tone: provider.state === 'ready' ? 'ok' : 'neutral' };
  if (check) return { label: 'ready', tone: 'ok', note: `tested · ${check.latency_ms} ms` };
  return { label: 'not tested', tone: 'neutral', note: 'no failed request so far; a test calls it once' };
}
