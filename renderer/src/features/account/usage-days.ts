import type { UsageGroup } from '../../lib/gateway-types';

const DAY_MS = 86_400_000;

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * One entry per UTC day (the gateway groups usage by UTC date) from `days` days before `now` up
 * to today, or from the earliest day with usage if that is older; days without usage are zeros.
 */
export function fillUsageDays(groups: readonly UsageGroup[], days: number, now: number): UsageGroup[] {
  const byKey = new Map(groups.map((g) => [g.key, g]));
  const earliest = groups.reduce((min, g) => (g.key < min ? g.key : min), utcDay(now - (days - 1) * DAY_MS));
  const filled: UsageGroup[] = [];
  for (let t = Date.parse(`${earliest}T00:00:00Z`); utcDay(t) <= utcDay(now); t += DAY_MS) {
    const key = utcDay(t);
    filled.push(
      byKey.get(key) ?? { key, requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: 0 },
    );
  }
  return filled;
}
