import { useState } from 'react';
import type { RecordedSpan } from '../../../../../gateway/src/wire/request-log-entry-schema';
import { axisTicks, formatDuration, waterfallLayout, type WaterfallRow } from '../waterfall-layout';

interface Props {
  /** The entry's spans; undefined for an entry logged before the gateway kept them. */
  spans: readonly RecordedSpan[] | undefined;
}

const attributeText = (value: RecordedSpan['attributes'][string]) =>
  Array.isArray(value) ? value.join(', ') : String(value);

const end = (row: WaterfallRow) => row.offsetPercent + row.widthPercent;
/** A long bar that starts early has no room on either side: its duration goes inside it. */
const durationInside = (row: WaterfallRow) => end(row) > 75 && row.offsetPercent < 25;

/** The duration's place: after the bar, or before it when the bar ends near the right edge. */
function durationPlace(row: WaterfallRow): React.CSSProperties {
  if (durationInside(row)) return { left: `${row.offsetPercent}%` };
  if (end(row) > 75) return { right: `${100 - row.offsetPercent}%` };
  return { left: `${end(row)}%` };
}

/** A bar's accessible name: what it is, when it starts, how long it takes, how it ended. */
function rowLabel(row: WaterfallRow): string {
  const parts = [
    row.span.name,
    row.attempt !== undefined ? `attempt ${row.attempt}` : undefined,
    `starts at ${formatDuration(row.startMs)}`,
    `takes ${formatDuration(row.span.duration_ms)}`,
    ...row.marks.map((mark) => `${mark.name} at ${formatDuration(mark.atMs)}`),
    row.error !== undefined ? `failed: ${row.error}` : undefined,
  ];
  return parts.filter(Boolean).join(', ');
}

function SpanDetails({ row }: { row: WaterfallRow }) {
  const attributes = Object.entries(row.span.attributes);
  return (
    <div className="waterfall-details" data-testid="span-details">
      <dl className="waterfall-attributes">
        <dt>kind</dt>
        <dd>{row.span.kind}</dd>
        <dt>status</dt>
        <dd>
          {row.span.status}
          {row.span.status_message ? `: ${row.span.status_message}` : ''}
        </dd>
        <dt>span id</dt>
        <dd>{row.span.span_id}</dd>
        {attributes.map(([name, value]) => (
          <div key={name} className="waterfall-attribute">
            <dt>{name}</dt>
            <dd>{attributeText(value)}</dd>
          </div>
        ))}
        {row.marks.map((mark, index) => (
          <div key={`${mark.name}-${index}`} className="waterfall-attribute">
            <dt>event</dt>
            <dd>
              {mark.name} at {formatDuration(mark.atMs)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * The request's spans as a waterfall: one bar per stage on the request's time axis, nested under
 * its parent, a failed stage's error under its bar, the first and last token as lines across; a bar
 * opens its attributes (click, Enter or Space).
 */
export function RequestWaterfall({ spans }: Props) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  if (!spans || spans.length === 0)
    return (
      <p className="muted small" data-testid="waterfall-empty">
        No timeline for this request. A quick successful request keeps its spans while it is among the newest 100 of its
        instance (failed and slow requests keep theirs), and an entry logged before the gateway kept each request&apos;s
        spans has none.
      </p>
    );
  const { rows, totalMs, tokenMarks } = waterfallLayout(spans);
  const ticks = axisTicks(totalMs);
  const toggle = (id: string) => {
    const next = new Set(open);
    if (!next.delete(id)) next.add(id);
    setOpen(next);
  };
  return (
    <div className="waterfall" data-testid="waterfall">
      <div className="waterfall-head" aria-hidden="true">
        <span className="waterfall-name faint small">
          {rows.length} spans · {formatDuration(totalMs)}
        </span>
        <span className="waterfall-track waterfall-axis">
          {ticks.map((tick) => (
            <span
              key={tick}
              className="waterfall-tick"
              style={{ left: `${totalMs > 0 ? (tick / totalMs) * 100 : 0}%` }}
            >
              {formatDuration(tick)}
            </span>
          ))}
        </span>
      </div>
      {tokenMarks.length > 0 && (
        <p className="waterfall-legend small">
          {tokenMarks.map((mark, index) => (
            <span key={`${mark.name}-${index}`} className="waterfall-legend-item">
              <span className="waterfall-token-swatch" aria-hidden="true" /> {mark.name}: {formatDuration(mark.atMs)}
            </span>
          ))}
        </p>
      )}
      <ol className="waterfall-rows" aria-label="Spans of the request">
        {rows.map((row) => {
          const expanded = open.has(row.span.span_id);
          return (
            <li key={row.span.span_id} className={row.error !== undefined ? 'waterfall-row-failed' : undefined}>
              <button
                type="button"
                className="waterfall-row"
                aria-expanded={expanded}
                aria-label={rowLabel(row)}
                title={rowLabel(row)}
                onClick={() => toggle(row.span.span_id)}
              >
                <span className="waterfall-name" style={{ paddingLeft: `${row.depth * 12}px` }}>
                  <span className="waterfall-caret" aria-hidden="true">
                    {expanded ? '▾' : '▸'}
                  </span>
                  <span className="waterfall-label">{row.span.name}</span>
                  {row.attempt !== undefined && <span className="badge table-badge">#{row.attempt}</span>}
                </span>
                <span className="waterfall-track">
                  {tokenMarks.map((mark, index) => (
                    <span
                      key={`${mark.name}-${index}`}
                      className="waterfall-token-line"
                      style={{ left: `${mark.atPercent}%` }}
                    />
                  ))}
                  <span
                    className={`waterfall-bar waterfall-bar-${row.span.kind}${row.error !== undefined ? ' waterfall-bar-error' : ''}`}
                    style={{ left: `${row.offsetPercent}%`, width: `${row.widthPercent}%` }}
                  >
                    {row.marks.map((mark, index) => (
                      <span
                        key={`${mark.name}-${index}`}
                        className="waterfall-mark"
                        style={{
                          left: `${row.widthPercent > 0 ? ((mark.atPercent - row.offsetPercent) / row.widthPercent) * 100 : 0}%`,
                        }}
                      />
                    ))}
                  </span>
                  <span
                    className={`waterfall-duration${durationInside(row) ? ' waterfall-duration-inside' : ''}`}
                    style={durationPlace(row)}
                  >
                    {formatDuration(row.span.duration_ms)}
                  </span>
                </span>
              </button>
              {row.error !== undefined && (
                <p className="waterfall-error" data-testid="span-error">
                  {row.error}
                </p>
              )}
              {expanded && <SpanDetails row={row} />}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
