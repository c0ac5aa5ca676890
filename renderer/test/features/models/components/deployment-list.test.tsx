import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayModel } from '../../../../src/lib/gateway-types';
import { DeploymentList } from '../../../../src/features/models/components/deployment-list';

const deployment = {
  provider: 'east',
  upstream_model: 'model-east',
  tags: [],
  breaker_state: 'closed' as const,
  in_flight: 0,
  minute_requests: 3,
  minute_tokens: 40,
};

const MODEL: GatewayModel = {
  id: 'svc-balanced',
  object: 'model',
  created: 0,
  owned_by: 'me',
  capabilities: ['chat'],
  aliases: [],
  archived: false,
  provider: 'east',
  state: 'ready',
  health: { state: 'ready' },
  breaker_state: 'closed',
  fine_tuned: false,
  metadata: {},
  routing_strategy: 'usage_based',
  deployments: [
    {
      ...deployment,
      id: 'east/model-east',
      weight: 3,
      rpm: 10,
      health: { state: 'ready' },
      cooldown_seconds: 0,
      requests: 812,
      errors: 2,
      latency_ms: 41.5,
      tokens: 9000,
      spend: 0.0123,
    },
    {
      ...deployment,
      id: 'west/model-west',
      provider: 'west',
      weight: 1,
      health: { state: 'failing', reason: '1 failed request in a row' },
      cooldown_seconds: 27,
      requests: 188,
      errors: 9,
      latency_ms: null,
      tokens: 2000,
      spend: 0.002,
    },
  ],
};

afterEach(cleanup);

describe('deployment list', () => {
  it("shows the strategy and each deployment's share, rpm use, traffic, errors, latency, spend and 429 cool-down", () => {
    render(<DeploymentList model={MODEL} currency="EUR" />);
    expect(screen.getByText(/2 deployments · usage-based/)).toBeTruthy();
    const [east, west] = screen.getAllByTestId('deployment').map((row) => row.textContent ?? '');
    expect(east).toContain('east/model-east');
    expect(east).toContain('75 % · 3/10 rpm');
    expect(east).toContain('812 requests · 2 errors · 42 ms · 9000 tokens · 0.0123 EUR');
    expect(west).toContain('25 %');
    expect(west).toContain('188 requests · 9 errors · 2000 tokens');
    expect(west).toContain('429 · back in 27 s');
    expect(east).not.toContain('429');
  });
});
