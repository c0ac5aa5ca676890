import { CONSOLE_CLIENT } from '../../lib/console-client';
import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';
import type { GatewayStatus } from '../../lib/gateway-types';

/** A provider as /status reports it, with its circuit breaker: the wire schema's type. */
export type ProviderView = GatewayStatus['providers'][number];
export type BreakerView = ProviderView['breaker'];

/** The providers of a /status answer (none while the gateway is starting and answers 503). */
export function providersOf(status: Pick<GatewayStatus, 'providers'> | undefined): ProviderView[] {
  return status?.providers ?? [];
}

export interface MinuteBucket {
  minute: number;
  requests: number;
  errors: number;
  p50: number | null;
  p95: number | null;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;

/** Requests per minute over the last `minutes` (console calls left out): count, 5xx and 429 errors, latency p50 and p95. */
export function minuteBuckets(entries: readonly RequestLogEntry[], now: number, minutes = 30): MinuteBucket[] {
  const end = Math.floor(now / 60_000);
  const buckets = Array.from({ length: minutes }, (_, i) => ({
    minute: end - minutes + 1 + i,
    latencies: [] as number[],
    errors: 0,
  }));
  for (const entry of entries) {
    if (entry.client === CONSOLE_CLIENT) continue;
    const index = Math.floor(entry.time / 60_000) - (end - minutes + 1);
    if (index < 0 || index >= minutes) continue;
    buckets[index].latencies.push(entry.latency_ms);
    if (entry.status >= 500 || entry.status === 429) buckets[index].errors += 1;
  }
  return buckets.map(({ minute, latencies, errors }) => {
    const sorted = [...latencies].sort((a, b) => a - b);
    return { minute, requests: sorted.length, errors, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  });
}
