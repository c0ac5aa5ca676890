import { expect, it } from 'vitest';
import { json } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

/** The request log holds every key's prompts, answers and traces: only an Owner reads it; a Member replays only its own. */
it("keeps the request log, its traces and its live feed from Member keys, and another key's requests from their replays", async () => {
  const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  const gateway = await useGateway({ config: { ...upstreamConfig(upstream), server: { request_log_bodies: true } } });
  const memberKey = async (name: string): Promise<string> =>
    (await json(await gateway.request('/account/keys', { method: 'POST', json: { name, role: 'member' } }))).key;
  const [alice, bob] = [await memberKey('alice'), await memberKey('bob')];
  const asked = await gateway.request('/v1/chat/completions', {
    method: 'POST',
    key: alice,
    json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'my secret plan' }] },
  });
  const id = asked.headers.get('x-request-id')!;
  await expect.poll(async () => (await gateway.request(`/console/requests/${id}`)).status).toBe(200);

  for (const key of [alice, bob]) {
    for (const path of ['/console/requests', `/console/requests/${id}`, '/console/requests/stream']) {
      const refused = await gateway.request(path, { key });
      expect([path, refused.status]).toEqual([path, 403]);
      expect(await json(refused)).toMatchObject({ code: 'owner_role_required' });
    }
  }
  const foreign = await gateway.request(`/console/requests/${id}/replay`, { method: 'POST', key: bob, json: {} });
  expect(foreign.status).toBe(404);
  expect(JSON.stringify(await json(foreign))).not.toContain('secret plan');
  const own = await gateway.request(`/console/requests/${id}/replay`, { method: 'POST', key: alice, json: {} });
  expect(own.status).toBe(200);
});
