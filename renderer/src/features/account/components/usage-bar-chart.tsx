import type { UsageGroup } from '../../../lib/gateway-types';

interface Props {
  days: readonly UsageGroup[];
  value(day: UsageGroup): number;
  format(value: number): string;
  label: string;
}

const WIDTH = 720;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 8 };

/** Usage per day as plain SVG bars; each bar's tooltip gives the date and the exact value. */
export function UsageBarChart({ days, value, format, label }: Props) {
  const values = days.map(value);
  const max = Math.max(...values, 0);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(days.length, 1);
  const barWidth = Math.max(2, Math.min(28, slot * 0.7));
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <figure className="usage-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-testid="usage-chart">
        <line className="usage-axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
        {days.map((day, i) => {
          const v = values[i];
          const h = max > 0 ? (v / max) * plotHeight : 0;
          const x = PAD.left + i * slot + (slot - barWidth) / 2;
          return (
            <g key={day.key} data-testid="usage-bar" data-day={day.key} data-value={v}>
              <rect className="usage-bar" x={x} y={HEIGHT - PAD.bottom - h} width={barWidth} height={Math.max(h, v > 0 ? 1 : 0)} rx={2}>
                <title>{`${day.key}: ${format(v)}`}</title>
              </rect>
              {(i % labelEvery === 0 || i === days.length - 1) && (
                <text className="usage-tick" x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle">
                  {day.key.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="small muted">Peak {format(max)} per day · UTC days</figcaption>
    </figure>
  );
}
