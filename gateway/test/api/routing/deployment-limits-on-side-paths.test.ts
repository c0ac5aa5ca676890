import { expect, it } from 'vitest';
import { awayFromMinuteEnd, balancedConfig, BALANCED_MODEL } from '../../support/balanced-route.js';
import { everythingStdio } from '../../support/mcp-servers.js';
import { json } from '../../support/start-gateway.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

/**
 * A deployment's rpm counts the calls it receives, whichever path sends them: every step of an MCP
 * tool loop takes a slot, and a cache hit, which reaches no deployment, takes none.
 */
it("counts each model call of a tool loop against a deployment's rpm, and no cache hit", async () => {
  await awayFromMinuteEnd(15_000);
  const [east, west] = [await useFakeUpstream({ toolLoop: true }), await useFakeUpstream()];
  const config = balancedConfig(east, west, {
    deployments: [{ provider: 'east', upstream_model: 'model-east', rpm: 3 }],
    cache: { mode: 'exact', ttl_s: 600 },
  });
  const gateway = await useGateway({
    config: { ...config, mcp_servers: [everythingStdio('everything')], server: { tool_loop_max_steps: 8 } },
  });
  const chats = () => east.requests.filter((request) => request.path === '/v1/chat/completions').length;
  const ask = () =>
    gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: BALANCED_MODEL, temperature: 0, messages: [{ role: 'user', content: 'asked twice' }] },
    });
  expect((await ask()).headers.get('x-switchyard-cache')).toBe('miss');
  for (let i = 0; i < 3; i++) expect((await ask()).headers.get('x-switchyard-cache')).toBe('hit');
  expect(chats()).toBe(1);

  // Two slots are left: the loop's first two model calls take them, its third finds none.
  const loop = await gateway.request('/v1/responses', {
    method: 'POST',
    json: {
      model: BALANCED_MODEL,
      input: 'please echo and repeat {"message": "again"}',
      tools: [{ type: 'mcp', server_label: 'everything', require_approval: 'never', allowed_tools: ['echo'] }],
    },
  });
  expect(loop.status).toBe(503);
  expect(await json(loop)).toMatchObject({ code: 'no_deployment_available' });
  expect(chats()).toBe(3);
});
