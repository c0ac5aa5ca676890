import { describe, expect, it } from 'vitest';
import { canServe, healthView } from '../../src/lib/provider-health';

// The verdict itself is the gateway's (gateway/test/core/routing/route-health.test.ts); the console only words it.
describe('healthView', () => {
  it('calls an upstream nobody has reached "not tested", not "ready"', () => {
    expect(healthView({ state: 'not_tested', reason: 'no request has reached it yet' })).toMatchObject({
      label: 'not tested',
      tone: 'neutral',
    });
  });

  it("shows a failed test, failing requests and an open breaker as what they are, with the gateway's reason", () => {
    expect(healthView({ state: 'unreachable', reason: 'the last test failed: connect ECONNREFUSED' })).toEqual({
      label: 'unreachable',
      tone: 'error',
      note: 'the last test failed: connect ECONNREFUSED',
    });
    expect(healthView({ state: 'failing', reason: '2 failed requests in a row' })).toMatchObject({
      label: 'failing',
      tone: 'warn',
      note: '2 failed requests in a row',
    });
    expect(healthView({ state: 'unavailable', reason: 'no model' })).toMatchObject({
      label: 'unavailable',
      tone: 'error',
      note: 'no model',
    });
    expect(healthView({ state: 'ready' }, true)).toMatchObject({ label: 'removed', tone: 'error' });
  });

  it('says which states can take a request', () => {
    expect(
      ['ready', 'cold', 'loading', 'not_tested', 'failing'].every((state) => canServe({ state: state as 'ready' })),
    ).toBe(true);
    expect(['unreachable', 'unavailable', 'no_route'].some((state) => canServe({ state: state as 'ready' }))).toBe(
      false,
    );
  });
});
