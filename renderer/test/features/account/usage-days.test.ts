import { describe, expect, it } from 'vitest';
import { fillUsageDays } from '../../../src/features/account/usage-days';

const group = (key: string, requests: number) => ({
  key,
  requests,
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
  cost: 0,
});

describe('fillUsageDays', () => {
  const now = Date.parse('2025-03-10T15:00:00Z');

  it('fills the days without usage with zeros up to today', () => {
    const days = fillUsageDays([group('2025-03-08', 4)], 7, now);
    expect(days.map((d) => d.key)).toEqual([
      '2025-03-04',
      '2025-03-05',
      '2025-03-06',
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
      '2025-03-10',
    ]);
    expect(days.map((d) => d.requests)).toEqual([0, 0, 0, 0, 4, 0, 0]);
  });

  it('starts at the earliest day with usage when it is older than the window', () => {
    const days = fillUsageDays([group('2025-02-28', 1), group('2025-03-10', 2)], 3, now);
    expect(days[0]).toMatchObject({ key: '2025-02-28', requests: 1 });
    expect(days.at(-1)).toMatchObject({ key: '2025-03-10', requests: 2 });
    expect(days).toHaveLength(11);
  });
});
