import { describe, expect, it } from 'vitest';
import { storedForm, type RequestLogEntry } from '../../../src/core/request-log/request-log.js';
import type { RecordedSpan } from '../../../src/wire/request-log-entry-schema.js';

const span = (overrides: Partial<RecordedSpan> = {}): RecordedSpan => ({
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
  span_id: '00f067aa0ba902b7',
  name: 'POST /v1/chat/completions',
  kind: 'server',
  start_time_ms: 1_764_379_440_123.5,
  duration_ms: 4.2,
  status: 'unset',
  attributes: {},
  ...overrides,
});

const entry = (overrides: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id: 'req_1',
  time: 1_764_379_440_123,
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  latency_ms: 4.2,
  key_prefix: 'sk-sy-abcd',
  model: 'svc-large-3-2512',
  prompt_tokens: 3,
  completion_tokens: 2,
  cost: 0.00001,
  client: null,
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
  spans: [span()],
  ...overrides,
});

describe('which spans the request log stores', () => {
  it('a quick plain success keeps its trace id, its spans stay in memory', () => {
    const quick = entry();
    const stored = storedForm(quick);
    expect(stored.spans).toBeUndefined();
    expect(stored.trace_id).toBe(quick.trace_id);
    expect(quick.spans).toHaveLength(1);
  });

  it("a quick stream's first and last token marks do not make it notable: its spans stay in memory too", () => {
    const marks = [
      { name: 'first token', time_ms: 1 },
      { name: 'last token', time_ms: 2 },
    ];
    expect(storedForm(entry({ spans: [span(), span({ name: 'chat m', events: marks })] })).spans).toBeUndefined();
  });

  it('a failed, slow, retried or partly failed request keeps them', () => {
    for (const notable of [
      entry({ status: 502 }),
      entry({ status: 401 }),
      entry({ latency_ms: 100 }),
      entry({ spans: [span(), span({ name: 'chat m', events: [{ name: 'retry', time_ms: 1 }] })] }),
      entry({ spans: [span(), span({ name: 'POST', status: 'error' })] }),
    ])
      expect(storedForm(notable).spans).toEqual(notable.spans);
  });
});
