import type { MinuteBucket } from '../status-view';

const W = 640;
const H = 180;
const PAD = { top: 10, right: 48, bottom: 22, left: 56 };

/** Latency (p50, p95) as lines on the left axis and the error rate as bars on the right one, per minute. */
export function TrafficChart({ buckets }: { buckets: MinuteBucket[] }) {
  const maxLatency = Math.max(1, ...buckets.map((b) => b.p95 ?? 0));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (i + 0.5) * (plotW / buckets.length);
  const yLatency = (ms: number) => PAD.top + plotH - (ms / maxLatency) * plotH;
  const line = (pick: (b: MinuteBucket) => number | null) =>
    buckets.flatMap((b, i) => (pick(b) === null ? [] : [`${x(i)},${yLatency(pick(b) as number)}`])).join(' ');
  const barW = Math.max(2, (plotW / buckets.length) * 0.6);
  return (
    <figure className="usage-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label="Latency and error rate per minute"
        data-testid="traffic-chart"
        className="traffic-chart"
      >
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line
              className="traffic-grid"
              x1={PAD.left}
              x2={W - PAD.right}
              y1={PAD.top + plotH * (1 - f)}
              y2={PAD.top + plotH * (1 - f)}
            />
            <text className="traffic-tick" x={PAD.left - 6} y={PAD.top + plotH * (1 - f) + 4} textAnchor="end">
              {Math.round(maxLatency * f)} ms
            </text>
            <text className="traffic-tick" x={W - PAD.right + 6} y={PAD.top + plotH * (1 - f) + 4}>
              {Math.round(100 * f)} %
            </text>
          </g>
        ))}
        {buckets.map((b, i) =>
          b.requests > 0 && b.errors > 0 ? (
            <rect
              key={b.minute}
              className="traffic-error"
              x={x(i) - barW / 2}
              width={barW}
              y={PAD.top + plotH * (1 - b.errors / b.requests)}
              height={plotH * (b.errors / b.requests)}
            >
              <title>{`${new Date(b.minute * 60_000).toLocaleTimeString()}: ${b.errors} of ${b.requests} failed`}</title>
            </rect>
          ) : null,
        )}
        <polyline className="traffic-p95" points={line((b) => b.p95)} />
        <polyline className="traffic-p50" points={line((b) => b.p50)} />
        {buckets.map((b, i) =>
          b.p50 !== null ? (
            <circle key={b.minute} className="traffic-point" cx={x(i)} cy={yLatency(b.p50)} r={2.5}>
              <title>{`${new Date(b.minute * 60_000).toLocaleTimeString()}: ${b.requests} requests · p50 ${Math.round(b.p50)} ms · p95 ${Math.round(b.p95 ?? 0)} ms`}</title>
            </circle>
          ) : null,
        )}
        <text className="traffic-tick" x={PAD.left} y={H - 6}>
          {buckets.length} min ago
        </text>
        <text className="traffic-tick" x={W - PAD.right} y={H - 6} textAnchor="end">
          now
        </text>
      </svg>
      <figcaption className="small muted">
        <span className="legend legend-p50" /> latency p50 · <span className="legend legend-p95" /> p95 ·{' '}
        <span className="legend legend-error" /> error rate (5xx and 429), per minute, without the console&apos;s own
        calls
      </figcaption>
    </figure>
  );
}
