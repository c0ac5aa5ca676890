import { describe, expect, it } from 'vitest';
import { OutageWarnings } from '../../../src/core/errors/outage-warnings.js';

function recorder() {
  const lines: { level: string; object: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    log: {
      warn: (object: object, message: string) =>
        void lines.push({ level: 'warn', object: object as Record<string, unknown>, message }),
      info: (object: object, message: string) =>
        void lines.push({ level: 'info', object: object as Record<string, unknown>, message }),
    },
  };
}

describe('OutageWarnings', () => {
  it('logs an outage once, then one reminder per 30 s with the count of refused requests, then its end; other codes are not counted', () => {
    let now = 1_000_000;
    const { lines, log } = recorder();
    const outages = new OutageWarnings(log, 30_000, () => now);
    // 10 refused requests a second for 65 s: 650 refusals, 3 lines (first, two reminders).
    for (let i = 0; i < 650; i++) {
      expect(outages.refusedRequest('database_unavailable')).toBe(true);
      now += 100;
    }
    expect(outages.refusedRequest('upstream_error')).toBe(false);
    expect(lines.map((line) => line.message)).toEqual([
      'database unavailable: requests that need it get 503 database_unavailable until it answers',
      'database still unavailable after 30 s: 300 requests refused in the last 30 s',
      'database still unavailable after 60 s: 300 requests refused in the last 30 s',
    ]);
    expect(lines[2].object).toMatchObject({ outage: 'database', refused: 300, refused_total: 601 });
    outages.recovered('database', 'database is back');
    expect(lines.at(-1)).toMatchObject({
      level: 'info',
      message: 'database is back',
      object: { outage: 'database', refused_total: 650, outage_s: 65 },
    });
    expect(outages.ongoing('database')).toBe(false);
  });

  it('keeps outages of the database and Redis apart, and starts a new outage after two quiet periods', () => {
    let now = 0;
    const { lines, log } = recorder();
    const outages = new OutageWarnings(log, 30_000, () => now);
    outages.refused('redis', 'team mode: lost Redis', {}, 0);
    outages.refused('redis', 'team mode: lost Redis', {}, 0);
    outages.refusedRequest('database_unavailable');
    expect(lines).toHaveLength(2);
    now += 61_000;
    outages.refused('redis', 'team mode: lost Redis', {}, 0);
    expect(lines.map((line) => line.message)).toEqual([
      'team mode: lost Redis',
      'database unavailable: requests that need it get 503 database_unavailable until it answers',
      'team mode: lost Redis',
    ]);
  });
});
