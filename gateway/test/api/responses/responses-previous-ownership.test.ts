import { expect, it } from 'vitest';
import { json } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

/** previous_response_id continues only a response the calling key may read, whether the route translates or passes through. */
it("refuses to continue another key's response, on a translated route and on one passed through to the upstream", async () => {
  const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  const provider = { base_url: upstream.url, api_key: UPSTREAM_KEY };
  const gateway = await useGateway({
    config: {
      providers: [
        { id: 'up', type: 'openai', ...provider },
        { id: 'native', type: 'openai', ...provider, responses_api: true },
      ],
      models: [
        { id: 'translated', provider: 'up', upstream_model: 't', capabilities: ['chat'] },
        { id: 'passed-through', provider: 'native', upstream_model: 'n', capabilities: ['chat'] },
      ],
    },
  });
  const memberKey = async (name: string): Promise<string> =>
    (await json(await gateway.request('/account/keys', { method: 'POST', json: { name, role: 'member' } }))).key;
  const [alice, bob] = [await memberKey('alice'), await memberKey('bob')];
  const respond = (key: string, body: Record<string, unknown>) =>
    gateway.request('/v1/responses', { method: 'POST', key, json: body });

  for (const model of ['translated', 'passed-through']) {
    const first = await respond(alice, { model, input: 'my account number is 12345' });
    expect(first.status).toBe(200);
    const { id } = await json(first);
    const sent = upstream.requests.length;
    const foreign = await respond(bob, { model, previous_response_id: id, input: 'what did I just tell you?' });
    expect([model, foreign.status]).toEqual([model, 404]);
    expect(await json(foreign)).toMatchObject({ code: 'response_not_found', param: 'previous_response_id' });
    expect(upstream.requests).toHaveLength(sent);
    // The key that made it continues it.
    expect((await respond(alice, { model, previous_response_id: id, input: 'and then?' })).status).toBe(200);
  }
});

it("refuses an upstream conversation id instead of passing it through to the upstream's stored conversations", async () => {
  const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  const gateway = await useGateway({
    config: {
      providers: [{ id: 'native', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, responses_api: true }],
      models: [{ id: 'passed-through', provider: 'native', upstream_model: 'n', capabilities: ['chat'] }],
    },
  });
  const member = (await json(await gateway.request('/account/keys', { method: 'POST', json: { name: 'm' } }))).key;
  for (const conversation of ['conv_someone_elses', { id: 'conv_someone_elses' }]) {
    const refused = await gateway.request('/v1/responses', {
      method: 'POST',
      key: member,
      json: { model: 'passed-through', conversation, input: 'what did we say?' },
    });
    expect(refused.status).toBe(422);
    expect(await json(refused)).toMatchObject({ code: 'unsupported_parameter', param: 'conversation' });
  }
  expect(upstream.requests).toHaveLength(0);
});
