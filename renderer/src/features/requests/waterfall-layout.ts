import type { RecordedSpan } from '../../../../gateway/src/wire/request-log-entry-schema';

/** A point in time on a span's bar: one of its events (the first token of a stream, a retry's backoff). */
export interface WaterfallMark {
  name: string;
  /** Milliseconds from the start of the trace. */
  atMs: number;
  /** Where on the axis, 0 to 100. */
  atPercent: number;
}

/** One span as a bar of the waterfall, in tree order. */
export interface WaterfallRow {
  span: RecordedSpan;
  /** How deep it is nested under the request's root span (0 for a root). */
  depth: number;
  /** Milliseconds from the start of the trace to the start of the span. */
  startMs: number;
  /** Where its bar starts and how wide it is, on an axis of 0 to 100. */
  offsetPercent: number;
  widthPercent: number;
  marks: WaterfallMark[];
  /** The span failed: its status message (or that it failed, without one). */
  error?: string;
  /** The number of the attempt it was, for routing attempts (`switchyard.attempt`). */
  attempt?: number;
}

export interface WaterfallLayout {
  rows: WaterfallRow[];
  /** From the first span's start to the last span's end, in milliseconds. */
  totalMs: number;
  /** The first and last token of a stream (events named so), on the whole axis. */
  tokenMarks: WaterfallMark[];
}

/** A bar is never narrower than this, so a span of a few microseconds still shows and can be hovered. */
export const MIN_BAR_PERCENT = 0.4;

const TOKEN_EVENT = /^(first|last) token$/i;

const percent = (ms: number, totalMs: number) => (totalMs > 0 ? Math.min(100, Math.max(0, (ms / totalMs) * 100)) : 0);

/**
 * The spans of a request as waterfall rows: each under its parent (a span whose parent is not among
 * them, such as a client's span that continued its trace, is a root), siblings by start time, with
 * the offset and width of its bar on the trace's time axis, its events as marks and the error of a
 * failed stage.
 */
export function waterfallLayout(spans: readonly RecordedSpan[]): WaterfallLayout {
  if (spans.length === 0) return { rows: [], totalMs: 0, tokenMarks: [] };
  const start = Math.min(...spans.map((span) => span.start_time_ms));
  const end = Math.max(...spans.map((span) => span.start_time_ms + Math.max(0, span.duration_ms)));
  const totalMs = end - start;
  const ids = new Set(spans.map((span) => span.span_id));
  const children = new Map<string | undefined, RecordedSpan[]>();
  for (const span of spans) {
    const parent = span.parent_span_id !== undefined && ids.has(span.parent_span_id) ? span.parent_span_id : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const rows: WaterfallRow[] = [];
  const tokenMarks: WaterfallMark[] = [];
  const visited = new Set<string>();
  const visit = (span: RecordedSpan, depth: number) => {
    // A span listed twice, or a parent loop in a damaged entry, is drawn once.
    if (visited.has(span.span_id)) return;
    visited.add(span.span_id);
    const startMs = span.start_time_ms - start;
    const offsetPercent = percent(startMs, totalMs);
    const marks = (span.events ?? []).map((event) => ({
      name: event.name,
      atMs: event.time_ms - start,
      atPercent: percent(event.time_ms - start, totalMs),
    }));
    tokenMarks.push(...marks.filter((mark) => TOKEN_EVENT.test(mark.name)));
    const attempt = span.attributes['switchyard.attempt'];
    rows.push({
      span,
      depth,
      startMs,
      offsetPercent,
      widthPercent: Math.min(
        100 - offsetPercent,
        Math.max(MIN_BAR_PERCENT, percent(Math.max(0, span.duration_ms), totalMs)),
      ),
      marks,
      ...(span.status === 'error' ? { error: span.status_message || 'failed' } : {}),
      ...(typeof attempt === 'number' ? { attempt } : {}),
    });
    for (const child of byStart(children.get(span.span_id) ?? [])) visit(child, depth + 1);
  };
  for (const root of byStart(children.get(undefined) ?? [])) visit(root, 0);
  // Spans whose parents form a loop have no root above them: drawn at the top level rather than lost.
  for (const span of byStart(spans)) visit(span, 0);
  return { rows, totalMs, tokenMarks: tokenMarks.sort((a, b) => a.atMs - b.atMs) };
}

function byStart(spans: readonly RecordedSpan[]): RecordedSpan[] {
  return [...spans].sort((a, b) => a.start_time_ms - b.start_time_ms);
}

/** A duration for people: microseconds under 1 ms, milliseconds under 10 s, seconds above. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Ticks for the time axis: about `count` round steps (1, 2 or 5 times a power of ten) from 0 to the total. */
export function axisTicks(totalMs: number, count = 5): number[] {
  if (totalMs <= 0) return [0];
  const rough = totalMs / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let at = 0; at <= totalMs + step * 1e-9; at += step) ticks.push(Math.round(at * 1e6) / 1e6);
  return ticks;
}
