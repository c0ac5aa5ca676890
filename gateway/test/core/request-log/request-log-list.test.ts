import { describe, expect, it } from 'vitest';
import { RequestLog, type RequestLogEntry } from '../../../src/core/request-log/request-log.js';
import type { RecordedSpan } from '../../../src/wire/request-log-entry-schema.js';
import { logEntry } from '../../support/log-entry.js';

const TRACE_A = 'a'.repeat(32);
const TRACE_B = 'b'.repeat(32);

function span(traceId: string): RecordedSpan {
  return {
    trace_id: traceId,
    span_id: '1'.repeat(16),
    name: 'POST /v1/chat/completions',
    kind: 'server',
    start_time_ms: 1_000,
    duration_ms: 5,
    status: 'ok',
    attributes: {},
  };
}

function entry(id: string, time: number, latency: number, traceId: string): RequestLogEntry {
  return logEntry({ id, time, latency_ms: latency, trace_id: traceId, spans: [span(traceId)] });
}

describe('the request list', () => {
  const log = new RequestLog(100);
  log.add(entry('fast-old', 1, 10, TRACE_A));
  log.add(entry('slow', 2, 900, TRACE_B));
  log.add(entry('medium-new', 3, 50, TRACE_A));

  it('finds the requests of one trace, newest first, in any case of its hex digits', () => {
    expect(log.recent(10, { trace_id: TRACE_A }).map((e) => e.id)).toEqual(['medium-new', 'fast-old']);
    expect(log.recent(10, { trace_id: TRACE_B.toUpperCase() }).map((e) => e.id)).toEqual(['slow']);
    expect(log.recent(10, { trace_id: 'c'.repeat(32) })).toEqual([]);
  });

  it('sorts slowest first among every match, then keeps the limit', () => {
    expect(log.recent(2, {}, 'latency_desc').map((e) => e.id)).toEqual(['slow', 'medium-new']);
    expect(log.recent(10, { trace_id: TRACE_A }, 'latency_desc').map((e) => e.id)).toEqual(['medium-new', 'fast-old']);
    expect(log.recent(2).map((e) => e.id)).toEqual(['medium-new', 'slow']);
  });

  it('leaves the spans to the detail: the list and the live feed carry none', () => {
    for (const listed of log.recent(10)) expect(listed).not.toHaveProperty('spans');
    expect(log.get('slow')?.spans).toHaveLength(1);
    const fed: RequestLogEntry[] = [];
    const stop = log.subscribe((e) => fed.push(e));
    log.add(entry('live', 4, 1, TRACE_B));
    stop();
    expect(fed.map((e) => e.id)).toEqual(['live']);
    expect(fed[0]).not.toHaveProperty('spans');
    expect(fed[0].trace_id).toBe(TRACE_B);
    expect(log.get('live')?.spans).toHaveLength(1);
  });
});
