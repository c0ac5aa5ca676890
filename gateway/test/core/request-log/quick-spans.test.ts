import { describe, expect, it } from 'vitest';
import { QUICK_SPANS_KEPT, RequestLog } from '../../../src/core/request-log/request-log.js';
import type { RecordedSpan } from '../../../src/wire/request-log-entry-schema.js';
import { logEntry } from '../../support/log-entry.js';

const span: RecordedSpan = {
  trace_id: 'a'.repeat(32),
  span_id: '1'.repeat(16),
  name: 'POST /v1/chat/completions',
  kind: 'server',
  start_time_ms: 1_000,
  duration_ms: 5,
  status: 'unset',
  attributes: {},
};

const entry = (id: string, latency: number) => logEntry({ id, latency_ms: latency, trace_id: 'a'.repeat(32) });

describe('the spans of quick plain successes, which only memory keeps', () => {
  it('stay with the newest entries; a slow request keeps its spans however many come after', async () => {
    const log = new RequestLog(1_000);
    log.add(entry('slow', 250), [span]);
    log.add(entry('first-quick', 3), [span]);
    for (let i = 0; i < QUICK_SPANS_KEPT - 1; i++) log.add(entry(`quick-${i}`, 3), [span]);
    expect((await log.detail('first-quick'))?.spans).toEqual([span]);

    log.add(entry('one-more', 3), [span]);
    expect((await log.detail('first-quick'))?.spans).toBeUndefined();
    expect(log.get('first-quick')?.id).toBe('first-quick');
    expect((await log.detail('one-more'))?.spans).toEqual([span]);
    expect((await log.detail('slow'))?.spans).toEqual([span]);
    // The list never carries spans.
    expect(log.recent(3).every((listed) => !('spans' in listed))).toBe(true);
  });
});
