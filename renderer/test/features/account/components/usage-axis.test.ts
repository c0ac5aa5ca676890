import { describe, expect, it } from 'vitest';
import { niceMax } from '../../../../src/features/account/components/usage-axis';

describe('usage chart axis', () => {
  it('rounds the top of the axis so the four ticks read well, whole numbers for counts', () => {
    expect(niceMax(2, true)).toBe(4);
    expect(niceMax(9, true)).toBe(20);
    expect(niceMax(180, true)).toBe(200);
    expect(niceMax(0.0042)).toBeCloseTo(0.008);
    expect(niceMax(0)).toBe(1);
  });
});
