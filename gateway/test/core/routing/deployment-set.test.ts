import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/_shared/provider-error.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import { DeploymentSet, type DeploymentMember } from '../../../src/core/routing/deployment-set.js';
import { LocalDeploymentUsage } from '../../../src/core/routing/deployment-usage.js';
import { RouteDeployment } from '../../../src/core/routing/route-deployment.js';
import type { DeploymentConfig, RoutingStrategy } from '../../../src/wire/model-route-schema.js';
import { seededRandom } from '../../support/seeded-random.js';

function members(configs: DeploymentConfig[], now = () => 1_000_000): DeploymentMember<string>[] {
  const usage = new LocalDeploymentUsage(now);
  return configs.map((config) => {
    const deployment = new RouteDeployment(
      'm',
      config.provider,
      { id: config.provider } as ProviderInstance,
      config,
      usage,
      now,
    );
    return { deployment, route: config.provider };
  });
}

const set = (strategy: RoutingStrategy, list: DeploymentMember<string>[], open: string[] = []) =>
  new DeploymentSet(strategy, list, (id) => open.includes(id), seededRandom(7));

describe('DeploymentSet.rank', () => {
  it('draws by weight, then orders the rest for retries; passes a breaker that is open', () => {
    const ranked = set(
      'weighted',
      members([
        { provider: 'a', weight: 3 },
        { provider: 'b', weight: 1 },
        { provider: 'c', weight: 0 },
      ]),
    );
    const firsts = Array.from({ length: 4000 }, () => ranked.rank()[0]!.route);
    expect(firsts.filter((id) => id === 'a').length / 4000).toBeCloseTo(0.75, 1);
    expect(firsts).not.toContain('c');
    expect(
      ranked
        .rank()
        .map((m) => m.route)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    const withOpen = set('weighted', members([{ provider: 'a' }, { provider: 'b' }]), ['a']);
    expect(withOpen.rank().map((m) => m.route)).toEqual(['b']);
  });

  it('least_busy, lowest_latency and usage_based pick by their measure', () => {
    const busy = members([{ provider: 'a' }, { provider: 'b' }]);
    busy[0]!.deployment.started();
    expect(set('least_busy', busy).rank()[0]!.route).toBe('b');

    const timed = members([{ provider: 'a' }, { provider: 'b' }, { provider: 'c' }]);
    for (const [index, ms] of [40, 10].entries()) {
      timed[index]!.deployment.started();
      timed[index]!.deployment.finished(ms, undefined);
    }
    // c has no answer yet: measured first; then the fastest.
    expect(
      set('lowest_latency', timed)
        .rank()
        .map((m) => m.route),
    ).toEqual(['c', 'b', 'a']);

    const used = members([
      { provider: 'a', rpm: 10 },
      { provider: 'b', rpm: 100 },
    ]);
    for (let i = 0; i < 5; i++) used[0]!.deployment.claim();
    for (let i = 0; i < 20; i++) used[1]!.deployment.claim();
    used[0]!.deployment.charged(300, 0);
    used[1]!.deployment.charged(200, 0);
    expect(set('usage_based', used).rank()[0]!.route).toBe('b'); // the fewest tokens this minute
    for (let i = 0; i < 5; i++) used[0]!.deployment.claim();
    expect(
      set('usage_based', used)
        .rank()
        .map((m) => m.route),
    ).toEqual(['b']); // a is at its rpm

    const tokens = members([{ provider: 'a', tpm: 1000 }, { provider: 'b' }]);
    tokens[0]!.deployment.charged(999, 0.01);
    expect(set('weighted', tokens).rank()).toHaveLength(2);
    tokens[0]!.deployment.charged(1, 0.01);
    expect(
      set('weighted', tokens)
        .rank()
        .map((m) => m.route),
    ).toEqual(['b']); // a is at its tpm
    expect(tokens[0]!.deployment.spend).toBeCloseTo(0.02);
  });

  it('skips a deployment cooling down after a 429 for its Retry-After, then takes it back', () => {
    let now = 1_000_000;
    const list = members([{ provider: 'a' }, { provider: 'b' }], () => now);
    list[0]!.deployment.started();
    list[0]!.deployment.finished(5, new ProviderError('rate_limited', 'slow down', { retryAfter: 3 }));
    expect(
      set('weighted', list)
        .rank()
        .map((m) => m.route),
    ).toEqual(['b']);
    now += 3_001;
    expect(set('weighted', list).rank()).toHaveLength(2);
  });

  it('keeps a sticky key on its deployment; only the keys of a deployment that leaves move', () => {
    const list = members([{ provider: 'a' }, { provider: 'b' }, { provider: 'c' }]);
    const keys = Array.from({ length: 300 }, (_, i) => `user-${i}`);
    const before = new Map(keys.map((key) => [key, set('least_busy', list).rank(key)[0]!.route]));
    for (const key of keys) expect(set('least_busy', list).rank(key)[0]!.route).toBe(before.get(key));
    const spread = [...before.values()];
    for (const id of ['a', 'b', 'c']) expect(spread.filter((each) => each === id).length).toBeGreaterThan(60);
    const withoutC = set('least_busy', list, ['c']);
    for (const key of keys) {
      const after = withoutC.rank(key)[0]!.route;
      if (before.get(key) !== 'c') expect(after).toBe(before.get(key));
      else expect(after).not.toBe('c');
    }
  });
});
