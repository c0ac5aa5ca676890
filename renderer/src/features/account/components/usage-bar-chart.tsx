import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { UsageGroup } from '../../../lib/gateway-types';
import { useThemeStore } from '../../../lib/theme-store';
import { TICKS, niceMax } from './usage-axis';

interface Props {
  days: readonly UsageGroup[];
  value(day: UsageGroup): number;
  format(value: number): string;
  label: string;
  /** Counts (requests, tokens): no fractional ticks. */
  integer?: boolean;
}

const HEIGHT = 220;
const cssVar = (element: Element, name: string) => getComputedStyle(element).getPropertyValue(name).trim();

interface Hover {
  index: number;
  left: number;
}

/**
 * Usage per day as bars, drawn by uPlot (axes, grid, hover cursor, resize) with a tooltip for the
 * hovered day. The same numbers are in a visually hidden table for screen readers and tests.
 */
export function UsageBarChart({ days, value, format, label, integer = false }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useThemeStore((s) => s.theme);
  const [hover, setHover] = useState<Hover | null>(null);
  const values = days.map(value);
  const max = Math.max(...values, 0);
  const top = niceMax(max, integer);
  // The chart is rebuilt when its data, scale or theme change; the callbacks it keeps read the latest props.
  const formatRef = useRef(format);
  formatRef.current = format;
  const dataKey = JSON.stringify([days.map((d) => d.key), values, top, theme]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const [keys, ys] = [days.map((d) => d.key), values];
    const text = cssVar(element, '--text-faint') || '#888';
    const grid = cssVar(element, '--border') || '#ddd';
    const accent = cssVar(element, '--accent') || '#4f46e5';
    const axis = {
      stroke: text,
      grid: { stroke: grid, width: 1, dash: [2, 3] },
      ticks: { show: false },
      font: '11px system-ui, sans-serif',
    };
    const chart = new uPlot(
      {
        width: Math.max(240, element.clientWidth),
        height: HEIGHT,
        legend: { show: false },
        cursor: { y: false, points: { show: false } },
        scales: { x: { time: false, range: [-0.5, keys.length - 0.5] }, y: { range: [0, top] } },
        axes: [
          {
            ...axis,
            size: 28,
            grid: { show: false },
            splits: () => keys.map((_, i) => i),
            values: (_u, splits) => splits.map((i) => keys[i]?.slice(5) ?? ''),
            space: 48,
          },
          {
            ...axis,
            size: 80,
            splits: () => Array.from({ length: TICKS + 1 }, (_, i) => (top / TICKS) * i),
            values: (_u, splits) => splits.map((v) => formatRef.current(v)),
          },
        ],
        series: [
          {},
          {
            label,
            fill: accent,
            stroke: 'transparent',
            width: 0,
            paths: uPlot.paths.bars!({ size: [0.7, 32], radius: 0.15 }),
            points: { show: false },
          },
        ],
        hooks: {
          setCursor: [
            (u) => {
              const index = u.cursor.idx;
              const offset = u.over.getBoundingClientRect().left - element.getBoundingClientRect().left;
              setHover(index === null || index === undefined ? null : { index, left: offset + u.valToPos(index, 'x') });
            },
          ],
        },
      },
      [keys.map((_, i) => i), ys],
      element,
    );
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(([entry]) =>
            chart.setSize({ width: Math.max(240, Math.floor(entry.contentRect.width)), height: HEIGHT }),
          );
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      chart.destroy();
    };
    // dataKey stands for days, values, top and theme: the effect re-runs only when one of them really changes.
  }, [dataKey, label]);

  const hovered = hover && days[hover.index];
  return (
    <figure className="usage-chart">
      <div
        className="usage-chart-plot"
        ref={box}
        role="img"
        aria-label={label}
        data-testid="usage-chart"
        onMouseLeave={() => setHover(null)}
      >
        {hovered && (
          <div className="chart-tooltip" role="status" style={{ left: hover.left }}>
            <span className="faint">{hovered.key}</span> <strong>{format(values[hover.index])}</strong>
          </div>
        )}
      </div>
      <table className="visually-hidden">
        <caption>{label}</caption>
        <tbody>
          {days.map((day, i) => (
            <tr key={day.key} data-testid="usage-bar" data-day={day.key} data-value={values[i]}>
              <th scope="row">{day.key}</th>
              <td>{format(values[i])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption className="small muted">Peak {format(max)} per day · UTC days</figcaption>
    </figure>
  );
}
