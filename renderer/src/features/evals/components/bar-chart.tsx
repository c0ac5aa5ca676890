import type { Bar } from '../run-results';

/** Horizontal bars with their values in words: a chart a screen reader reads as a list. */
export function BarChart({ title, bars, tone = 'accent' }: { title: string; bars: Bar[]; tone?: 'accent' | 'ok' }) {
  return (
    <figure className="bar-chart" aria-label={title}>
      <figcaption className="bar-chart-title">{title}</figcaption>
      <ul className="plain-list">
        {bars.map((bar) => (
          <li key={bar.label} className="bar-chart-row">
            <span className="bar-chart-label mono" title={bar.label}>
              {bar.label}
            </span>
            <span className="bar-chart-track" aria-hidden="true">
              <span className={`bar-chart-bar bar-${tone}`} style={{ width: `${bar.fraction * 100}%` }} />
            </span>
            <span className="bar-chart-value">{bar.text}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
