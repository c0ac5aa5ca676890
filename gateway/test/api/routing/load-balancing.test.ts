import { describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { ADMIN_KEY, json, type TestGateway } from '../../support/start-gateway.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';
import {
  awayFromMinuteEnd,
  balancedConfig as balanced,
  chatsOn as chats,
  EIGHTY_TWENTY as TWO,
  sendChats as send,
} from '../../support/balanced-route.js';

/** Two deployments on a least_busy route whose upstreams send each frame 300 ms apart: four streams are still being written a second later. */
async function leastBusyWithSlowStreams() {
  const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
  const gateway = await useGateway({
    config: balanced(east, west, {
      routing_strategy: 'least_busy',
      deployments: TWO.map((deployment) => ({ ...deployment, weight: 1 })),
    }),
  });
  east.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 300 } });
  west.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 300 } });
  return { east, west, gateway };
}

/** A usage_based route over two deployments with these limits, started away from a minute's end (the windows are per minute). */
async function usageBased(eastLimits: { rpm?: number; tpm?: number }, westLimits: { rpm?: number; tpm?: number }) {
  await awayFromMinuteEnd();
  const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
  const gateway = await useGateway({
    config: balanced(east, west, {
      routing_strategy: 'usage_based',
      deployments: [
        { provider: 'east', upstream_model: 'model-east', ...eastLimits },
        { provider: 'west', upstream_model: 'model-west', ...westLimits },
      ],
    }),
  });
  return { east, west, gateway };
}

/** Each deployment's requests in flight, as /v1/models shows them. */
async function inFlightOn(gateway: TestGateway): Promise<number[]> {
  const model = await json(await gateway.request('/v1/models/svc-balanced'));
  return model.deployments.map((deployment: { in_flight: number }) => deployment.in_flight);
}

describe('several deployments behind one model id', () => {
  it('splits 1,000 requests 80/20 by weight, and shows each deployment on /models and /metrics', async () => {
    const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
    const gateway = await useGateway({ config: balanced(east, west, { deployments: TWO }) });
    expect(await send(gateway.url, 1000)).toEqual([]);
    const share = chats(east).length / 1000;
    expect(share).toBeGreaterThanOrEqual(0.75);
    expect(share).toBeLessThanOrEqual(0.85);
    expect(chats(east).length + chats(west).length).toBe(1000);
    expect((chats(east)[0]!.body as { model: string }).model).toBe('model-east');
    expect((chats(west)[0]!.body as { model: string }).model).toBe('model-west');

    const model = await json(await gateway.request('/v1/models/svc-balanced'));
    expect(model.routing_strategy).toBe('weighted');
    const [first, second] = model.deployments;
    expect(first).toMatchObject({
      id: 'east/model-east',
      provider: 'east',
      weight: 80,
      requests: chats(east).length,
      errors: 0,
    });
    expect(second).toMatchObject({ id: 'west/model-west', requests: chats(west).length, errors: 0 });
    expect(first.tokens).toBeGreaterThan(0);
    expect(first.spend).toBeGreaterThan(0);
    expect(first.latency_ms).toBeGreaterThan(0);

    const metrics = await (await gateway.request('/metrics')).text();
    expect(metrics).toContain(
      `switchyard_deployment_requests_total{model="svc-balanced",deployment="east/model-east",provider="east",outcome="ok"} ${chats(east).length}`,
    );
    expect(metrics).toMatch(
      /switchyard_deployment_spend_total\{model="svc-balanced",deployment="west\/model-west"[^}]*\} [0-9.]+/,
    );
  });

  it('moves traffic off a deployment that answers 429 (honouring Retry-After) or is down, with no failed request', async () => {
    const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
    const gateway = await useGateway({ config: balanced(east, west, { deployments: TWO }) });
    east.setBehaviour({ failure: { type: 'status', status: 429, headers: { 'retry-after': '30' } } });
    expect(await send(gateway.url, 40)).toEqual([]);
    // The first 429 started its cool-down: at most one per request in flight reached it.
    expect(chats(east).length).toBeLessThanOrEqual(8);
    const model = await json(await gateway.request('/v1/models/svc-balanced'));
    expect(model.deployments[0].cooldown_seconds).toBeGreaterThan(25);

    const [up, down] = [await useFakeUpstream(), await useFakeUpstream()];
    const other = await useGateway({ config: balanced(down, up, { deployments: TWO }) });
    await down.close();
    expect(await send(other.url, 40)).toEqual([]);
    expect(chats(up).length).toBe(40);
    // Its breaker opened; the route still serves, on the other deployment.
    const route = await json(await other.request('/v1/models/svc-balanced'));
    expect(route.deployments[0]).toMatchObject({ breaker_state: 'open', health: { state: 'unreachable' } });
    expect(route.health.state).not.toBe('unreachable');
    expect(route.state).not.toBe('unavailable');
  });

  it('keeps a user (or X-Switchyard-Sticky-Key) on one deployment while it is available, through the openai SDK', async () => {
    const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
    const gateway = await useGateway({
      config: balanced(east, west, {
        deployments: TWO.map((deployment) => ({ ...deployment, weight: 1 })),
        routing_strategy: 'least-busy',
      }),
    });
    const client = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const servedBy = async (user: string) => {
      const before = chats(east).length;
      await client.chat.completions.create({
        model: 'svc-balanced',
        user,
        messages: [{ role: 'user', content: 'hi' }],
      });
      return chats(east).length > before ? 'east' : 'west';
    };
    const users = Array.from({ length: 12 }, (_, index) => `user-${index}`);
    const first = new Map<string, string>();
    for (const user of users) first.set(user, await servedBy(user));
    for (const user of users) expect(await servedBy(user)).toBe(first.get(user));
    expect(new Set(first.values()).size).toBe(2);

    const viaHeader = async () => {
      const before = chats(east).length;
      expect(await send(gateway.url, 1, 1, () => ({ headers: { 'x-switchyard-sticky-key': 'session-42' } }))).toEqual(
        [],
      );
      return chats(east).length > before ? 'east' : 'west';
    };
    const pinned = await viaHeader();
    for (let round = 0; round < 5; round++) expect(await viaHeader()).toBe(pinned);
    // Text completions too: the same user stays on its deployment.
    const completedBy = async (user: string) => {
      const before = east.requests.length;
      await client.completions.create({ model: 'svc-balanced', user, prompt: 'hi' });
      return east.requests.length > before ? 'east' : 'west';
    };
    const firstCompletion = await completedBy('writer-7');
    for (let round = 0; round < 4; round++) expect(await completedBy('writer-7')).toBe(firstCompletion);

    // Its deployment answers 429: the user moves, and no request fails.
    const user = users.find((each) => first.get(each) === 'east')!;
    east.setBehaviour({ failure: { type: 'status', status: 429, headers: { 'retry-after': '30' } } });
    expect(await servedBy(user)).toBe('east'); // the 429 reached east, then west answered
    expect(await servedBy(user)).toBe('west');
  });

  it('least_busy counts a stream in flight until it ends, and a stream that fails midway as an error', async () => {
    const { east, west, gateway } = await leastBusyWithSlowStreams();
    const stream = () =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'svc-balanced', stream: true, messages: [{ role: 'user', content: 'one two three four' }] },
      });
    const streams = await Promise.all([stream(), stream(), stream(), stream()]);
    const inFlight = await inFlightOn(gateway);
    expect(inFlight[0] + inFlight[1]).toBe(4);
    // Least busy spreads them: two each, not all four on one.
    expect(inFlight).toEqual([2, 2]);
    for (const response of streams) expect(await response.text()).toContain('data: [DONE]');
    expect(await inFlightOn(gateway)).toEqual([0, 0]);

    east.setBehaviour({ failure: { type: 'cut_mid_stream', afterFrames: 2 } });
    west.setBehaviour({ failure: { type: 'cut_mid_stream', afterFrames: 2 } });
    const cut = await stream();
    expect(await cut.text()).toContain('"object":"error"');
    const failed = await json(await gateway.request('/v1/models/svc-balanced'));
    expect(failed.deployments.map((deployment: { errors: number }) => deployment.errors).sort()).toEqual([0, 1]);
    expect(failed.deployments.map((deployment: { in_flight: number }) => deployment.in_flight)).toEqual([0, 0]);
  });

  it('least_busy counts a FIM stream in flight until it ends too', async () => {
    const { gateway } = await leastBusyWithSlowStreams();
    const fill = () =>
      gateway.request('/v1/fim/completions', {
        method: 'POST',
        json: { model: 'svc-balanced', stream: true, prompt: 'def add(a, b):' },
      });
    const streams = await Promise.all([fill(), fill(), fill(), fill()]);
    expect(await inFlightOn(gateway)).toEqual([2, 2]);
    for (const response of streams) expect(await response.text()).toContain('data: [DONE]');
    expect(await inFlightOn(gateway)).toEqual([0, 0]);
  });

  it('lowest_latency stops putting first a deployment that only fails (its upstream refuses its key)', async () => {
    const [east, west] = [await useFakeUpstream({ apiKey: 'another-key' }), await useFakeUpstream()];
    const gateway = await useGateway({
      config: balanced(east, west, { routing_strategy: 'lowest_latency', deployments: TWO }),
    });
    expect(await send(gateway.url, 10, 1)).toEqual([]);
    // Its first request found it failing; it was measured as slow, not left "unmeasured, try first".
    expect(chats(east).length).toBe(1);
    expect(chats(west).length).toBe(10);
  });

  it('usage_based keeps each deployment under its rpm, then refuses with 503 and Retry-After', async () => {
    const { east, west, gateway } = await usageBased({ rpm: 4 }, { rpm: 6 });
    expect(await send(gateway.url, 10, 1)).toEqual([]);
    expect(chats(east).length).toBe(4);
    expect(chats(west).length).toBe(6);
    const refused = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'svc-balanced', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(refused)).code).toBe('no_deployment_available');
  });

  it('usage_based weighs a deployment with limits and one without by the same measure: tokens this minute', async () => {
    const { east, west, gateway } = await usageBased({ tpm: 1_000_000 }, {});
    expect(await send(gateway.url, 10, 1)).toEqual([]);
    // Each answer costs the same tokens, so the one with fewer goes next: they take turns.
    expect(chats(east).length).toBe(5);
    expect(chats(west).length).toBe(5);
  });

  it("counts each retry on a route's last deployment against that deployment's rpm", async () => {
    await awayFromMinuteEnd();
    const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
    const gateway = await useGateway({
      config: balanced(east, west, {
        max_retries: 2,
        deployments: [{ provider: 'east', upstream_model: 'model-east', rpm: 3 }],
      }),
    });
    east.setBehaviour({ failure: { type: 'status', status: 500 }, times: 2 });
    const ask = () =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'svc-balanced', messages: [{ role: 'user', content: 'hi' }] },
      });
    const first = await ask();
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    // Three attempts reached it (two failed, the third answered): its rpm of 3 is used up.
    expect(chats(east).length).toBe(3);
    const second = await ask();
    expect(second.status).toBe(503);
    expect((await json(second)).code).toBe('no_deployment_available');
    expect(chats(east).length).toBe(3);
  });

  it('validates deployments in the config file and the Settings API, naming the field', async () => {
    const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
    await expect(useGateway({ config: balanced(east, west, { provider: 'east', deployments: TWO }) })).rejects.toThrow(
      /models\[0\]\.provider: a route has either `provider` or `deployments`/,
    );
    await expect(
      useGateway({ config: balanced(east, west, { deployments: [{ provider: 'north' }] }) }),
    ).rejects.toThrow(/models\[0\]\.deployments\[0\]\.provider: no provider with id "north"/);

    const gateway = await useGateway({ config: balanced(east, west, { deployments: TWO }) });
    const put = (body: Record<string, unknown>) =>
      gateway.request('/settings/routes/svc-two', { method: 'PUT', json: { capabilities: ['chat'], ...body } });
    const unknown = await put({ deployments: [{ provider: 'east' }, { provider: 'north' }] });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).param).toBe('deployments[1].provider');
    const badWeight = await put({ deployments: [{ provider: 'east', weight: -1 }] });
    expect(badWeight.status).toBe(422);
    expect(JSON.stringify(await json(badWeight))).toContain('weight');
    const saved = await put({ deployments: TWO, routing_strategy: 'latency-based-routing' });
    expect(saved.status).toBe(200);
    const model = await json(await gateway.request('/v1/models/svc-two'));
    expect(model.routing_strategy).toBe('lowest_latency');
    expect(model.deployments.map((deployment: { id: string }) => deployment.id)).toEqual([
      'east/model-east',
      'west/model-west',
    ]);
  });
});
