import { describe, expect, it } from 'vitest';
import { RequestBilling } from '../../../src/core/billing/billing-service.js';
import { LocalDeploymentUsage } from '../../../src/core/routing/deployment-usage.js';
import type { ModelRoute } from '../../../src/core/routing/model-registry.js';
import { RouteDeployment } from '../../../src/core/routing/route-deployment.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';

describe("a balanced route's deployment counts what its requests were billed", () => {
  it('a charge that replaces an earlier one (a multi-prompt running total) replaces it in the counts too', () => {
    const usage = new LocalDeploymentUsage();
    const deployment = new RouteDeployment(
      'm',
      'east/m',
      { id: 'east' } as ProviderInstance,
      { provider: 'east' },
      usage,
    );
    const route = {
      id: 'm',
      deployment,
      pricing: { input_per_million: 1_000_000, output_per_million: 0 },
    } as ModelRoute;
    const billing = new RequestBilling();
    billing.charge(route, { prompt_tokens: 3, completion_tokens: 2 });
    billing.charge(route, { prompt_tokens: 7, completion_tokens: 4 });
    billing.addCharge(route, { prompt_tokens: 1, completion_tokens: 0 });
    expect(deployment.tokens).toBe(12);
    expect(deployment.spend).toBe(8);
    expect(usage.used(deployment.key).tokens).toBe(12);
  });
});
