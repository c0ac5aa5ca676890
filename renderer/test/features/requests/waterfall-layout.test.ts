import { describe, expect, it } from 'vitest';
import {
  axisTicks,
  formatDuration,
  MIN_BAR_PERCENT,
  waterfallLayout,
} from '../../../src/features/requests/waterfall-layout';
import { localModelChat, streamedChatWithRetry, T0, TRACE_ID } from './span-fixtures';

describe('the waterfall of a request', () => {
  it('nests each span under its parent, siblings in start order, whatever order they were recorded in', () => {
    const { rows, totalMs } = waterfallLayout(streamedChatWithRetry());
    expect(totalMs).toBe(820);
    expect(rows.map((row) => [row.depth, row.span.name])).toEqual([
      [0, 'POST /v1/chat/completions'],
      [1, 'authentication'],
      [1, 'spend reservation'],
      [1, 'chat svc-large-3'],
      [2, 'attempt upstream'],
      [2, 'attempt upstream'],
      [2, 'attempt backup'],
      [3, 'chat backup-model'],
      [1, 'usage write'],
    ]);
    expect(rows.map((row) => row.attempt)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      1,
      2,
      3,
      undefined,
      undefined,
    ]);
  });

  it("places each bar by its start and duration on the trace's axis", () => {
    const { rows } = waterfallLayout(streamedChatWithRetry());
    const byName = (name: string) => rows.find((row) => row.span.name === name)!;
    expect(byName('POST /v1/chat/completions')).toMatchObject({ startMs: 0, offsetPercent: 0, widthPercent: 100 });
    const fallback = byName('attempt backup');
    expect(fallback.startMs).toBe(500);
    expect(fallback.offsetPercent).toBeCloseTo((500 / 820) * 100, 6);
    expect(fallback.widthPercent).toBeCloseTo((300 / 820) * 100, 6);
    // Too short to see at this scale: still a bar one can point at.
    expect(byName('authentication').widthPercent).toBe(MIN_BAR_PERCENT);
  });

  it('carries the error of a failed stage, and the first and last token as marks', () => {
    const { rows, tokenMarks } = waterfallLayout(streamedChatWithRetry());
    expect(rows.filter((row) => row.error).map((row) => [row.attempt, row.error])).toEqual([
      [1, 'The upstream provider answered 503: overloaded'],
      [2, 'No first byte within 1500 ms'],
    ]);
    expect(tokenMarks.map((mark) => [mark.name, mark.atMs])).toEqual([
      ['first token', 620],
      ['last token', 795],
    ]);
    expect(tokenMarks[0].atPercent).toBeCloseTo((620 / 820) * 100, 6);
    const routing = rows.find((row) => row.span.name === 'chat svc-large-3')!;
    expect(routing.marks).toEqual([{ name: 'backoff', atMs: 120, atPercent: (120 / 820) * 100 }]);
  });

  it("shows a local model's queue wait, load, prompt processing and generation in order", () => {
    const { rows, tokenMarks } = waterfallLayout(localModelChat());
    expect(rows.slice(2).map((row) => [row.span.name, Math.round(row.widthPercent)])).toEqual([
      ['queue wait', 4],
      ['model load', 75],
      ['prompt processing', 8],
      ['generation', 12],
    ]);
    expect(tokenMarks.map((mark) => mark.atMs)).toEqual([2110]);
  });

  it("draws a span whose parent is elsewhere (the client's) as a root, and nothing for no spans", () => {
    const child = {
      trace_id: TRACE_ID,
      span_id: 'aaaaaaaaaaaaaaaa',
      parent_span_id: 'ffffffffffffffff',
      name: 'POST /v1/embeddings',
      kind: 'server' as const,
      start_time_ms: T0,
      duration_ms: 0,
      status: 'unset' as const,
      attributes: {},
    };
    const { rows, totalMs } = waterfallLayout([child]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ depth: 0, offsetPercent: 0, widthPercent: MIN_BAR_PERCENT });
    expect(totalMs).toBe(0);
    // Two spans that name each other as parent are each drawn once.
    const loop = [
      { ...child, span_id: 'a'.repeat(16), parent_span_id: 'b'.repeat(16) },
      { ...child, span_id: 'b'.repeat(16), parent_span_id: 'a'.repeat(16) },
    ];
    expect(waterfallLayout(loop).rows).toHaveLength(2);
    expect(waterfallLayout([])).toEqual({ rows: [], totalMs: 0, tokenMarks: [] });
  });

  it('labels the axis in round steps and durations in the unit that reads best', () => {
    expect(axisTicks(820)).toEqual([0, 200, 400, 600, 800]);
    expect(axisTicks(2400)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(axisTicks(0)).toEqual([0]);
    expect([0, 0.25, 3.14, 820, 24_500].map(formatDuration)).toEqual(['0 ms', '250 µs', '3.1 ms', '820 ms', '24.5 s']);
  });
});
