import type { Health, HealthState } from './gateway-types';

export interface ProviderHealth {
  label: string;
  tone: 'ok' | 'warn' | 'error' | 'neutral';
  /** One line under the badge: why, and what to do. */
  note?: string;
}

export const HEALTH_TONE_CLASS = { ok: 'badge-ok', warn: 'badge-warn', error: 'badge-error', neutral: '' } as const;

const LABEL: Record<HealthState, string> = {
  ready: 'ready',
  not_tested: 'not tested',
  failing: 'failing',
  unreachable: 'unreachable',
  unavailable: 'unavailable',
  cold: 'cold',
  loading: 'loading',
  no_route: 'no route',
};

const TONE: Record<HealthState, ProviderHealth['tone']> = {
  ready: 'ok',
  not_tested: 'neutral',
  failing: 'warn',
  unreachable: 'error',
  unavailable: 'error',
  cold: 'neutral',
  loading: 'warn',
  no_route: 'warn',
};

/**
 * What the console says about a provider or a route: the gateway's one verdict (`health` on
 * /status, /settings and /v1/models), so Models, Status, Settings and Transcription never disagree.
 */
export function healthView(health: Health, removed = false): ProviderHealth {
  if (removed) return { label: 'removed', tone: 'error', note: health.reason };
  return { label: LABEL[health.state], tone: TONE[health.state], ...(health.reason ? { note: health.reason } : {}) };
}

/** Whether a route in this health can take a request now (cold and loading ones load on first use). */
export function canServe(health: Health): boolean {
  return health.state !== 'unreachable' && health.state !== 'unavailable' && health.state !== 'no_route';
}
