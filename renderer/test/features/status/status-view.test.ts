import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';
import { minuteBuckets, providersOf } from '../../../src/features/status/status-view';

const entry = (time: number, status: number, latency: number, client: string | null = null): RequestLogEntry => ({
  id: `req_${time}_${status}`,
  time,
  method: 'POST',
  path: '/v1/chat/completions',
  status,
  latency_ms: latency,
  key_prefix: null,
  model: null,
  prompt_tokens: null,
  completion_tokens: null,
  cost: null,
  client,
});

describe('status page data', () => {
  it('reads the providers with their breaker, or none while the gateway starts', () => {
    const providers = [
      {
        id: 'up',
        type: 'openai',
        kind: 'upstream' as const,
        state: 'ready' as const,
        breaker: { state: 'open' as const, consecutive_failures: 3, retry_after_seconds: 12 },
        health: { state: 'unreachable' as const },
      },
    ];
    expect(providersOf({ providers })).toEqual(providers);
    expect(providersOf(undefined)).toEqual([]);
  });

  it('buckets traffic per minute with latency percentiles and errors, without console calls', () => {
    const now = Date.UTC(2026, 10, 24, 6, 0, 30);
    const minute = (m: number) => now - m * 60_000;
    const buckets = minuteBuckets(
      [
        entry(minute(0), 200, 100),
        entry(minute(0), 502, 300),
        entry(minute(0), 200, 50, 'console'),
        entry(minute(1), 429, 10),
        entry(minute(90), 500, 1),
      ],
      now,
      30,
    );
    expect(buckets).toHaveLength(30);
    expect(buckets[29]).toMatchObject({ requests: 2, errors: 1, p50: 300, p95: 300 });
    expect(buckets[28]).toMatchObject({ requests: 1, errors: 1, p50: 10 });
    expect(buckets.slice(0, 28).every((b) => b.requests === 0 && b.p50 === null)).toBe(true);
  });
});
