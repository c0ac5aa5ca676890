import { useEffect, useRef, useState } from 'react';
import type { UsageGroup } from '../../../lib/gateway-types';

interface Props {
  days: readonly UsageGroup[];
  value(day: UsageGroup): number;
  format(value: number): string;
  label: string;
  /** Counts (requests, tokens): no fractional ticks. */
  integer?: boolean;
}

const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 26, left: 88 };
const TICKS = 4;

/** A round upper bound for the axis (1, 2 or 5 times a power of ten) so tick labels read well. */
export function niceMax(max: number, integer = false): number {
  if (max <= 0) return integer ? TICKS : 1;
  const step = integer ? Math.max(1, max / TICKS) : max / TICKS;
  const power = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 5, 10].find((m) => m * power >= step) ?? 10;
  return nice * power * TICKS;
}

/** Usage per day as SVG bars at the card's own width, with a value axis and grid; each bar's tooltip gives the date and the exact value. */
export function UsageBarChart({ days, value, format, label, integer = false }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.floor(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const values = days.map(value);
  const max = Math.max(...values, 0);
  const top = niceMax(max, integer);
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(days.length, 1);
  const barWidth = Math.max(2, Math.min(32, slot * 0.7));
  const labelEvery = Math.ceil(days.length / Math.max(2, Math.floor(plotWidth / 64)));
  const y = (v: number) => PAD.top + plotHeight - (v / top) * plotHeight;
  return (
    <figure className="usage-chart" ref={box}>
      <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={label} data-testid="usage-chart">
        {Array.from({ length: TICKS + 1 }, (_, i) => (top / TICKS) * i).map((tick) => (
          <g key={tick} data-testid="usage-tick">
            <line className="usage-grid" x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text className="usage-tick" x={PAD.left - 6} y={y(tick) + 4} textAnchor="end">
              {format(tick)}
            </text>
          </g>
        ))}
        <line className="usage-axis" x1={PAD.left} x2={width - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
        {days.map((day, i) => {
          const v = values[i];
          const h = (v / top) * plotHeight;
          const x = PAD.left + i * slot + (slot - barWidth) / 2;
          return (
            <g key={day.key} data-testid="usage-bar" data-day={day.key} data-value={v}>
              <rect className="usage-bar" x={x} y={HEIGHT - PAD.bottom - h} width={barWidth} height={Math.max(h, v > 0 ? 1 : 0)} rx={2}>
                <title>{`${day.key}: ${format(v)}`}</title>
              </rect>
              {(i % labelEvery === 0 || i === days.length - 1) && (
                <text className="usage-tick" x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle">
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
