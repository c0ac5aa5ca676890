import { expect, it } from 'vitest';
import type { TestGateway } from '../../support/start-gateway.js';
import { startTeamOfGateways } from '../../support/team-of-gateways.js';
import { closeAfterTest, useFakeUpstream } from '../../support/use-resources.js';
import { cacheConfig, chat } from '../../support/response-cache-config.js';

it('shares the Redis cache between two team-mode instances, streams replayed byte for byte', async () => {
  const upstream = await useFakeUpstream();
  const team = closeAfterTest(await startTeamOfGateways(2, { config: cacheConfig(upstream) }));
  const [a, b] = team.instances as [TestGateway, TestGateway];
  const body = {
    model: 'svc-large-3-2512',
    temperature: 0,
    stream: true,
    messages: [{ role: 'user', content: 'asked once' }],
  };
  const first = await chat(a, body);
  expect(first.headers.get('x-switchyard-cache')).toBe('miss');
  const firstText = await first.text();
  const other = await chat(b, body);
  expect(other.headers.get('x-switchyard-cache')).toBe('hit');
  expect(await other.text()).toBe(firstText);
  expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(1);
});
