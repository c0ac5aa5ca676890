import type { StreamStats } from '../lib/collect-text-stream';
import { formatCost, formatMs } from '../lib/format';

/** Time to first token, speed, token counts and cost of one answer; unknown values are left out. */
export function StreamStatsView({ stats, currency }: { stats: StreamStats; currency?: string }) {
  const items: [string, string][] = [];
  if (stats.timeToFirstTokenMs !== null) items.push(['First token', formatMs(stats.timeToFirstTokenMs)]);
  if (stats.tokensPerSecond !== null) items.push(['Speed', `${stats.tokensPerSecond.toFixed(1)} tok/s`]);
  if (stats.promptTokens !== null) items.push(['Prompt', `${stats.promptTokens} tok`]);
  if (stats.completionTokens !== null) items.push(['Completion', `${stats.completionTokens} tok`]);
  if (stats.cost !== null) items.push(['Cost', formatCost(stats.cost, currency)]);
  if (!items.length) return null;
  return (
    <dl className="message-stats" aria-label="Answer statistics">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
