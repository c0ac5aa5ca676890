import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { startTeamOfGateways, TEST_REDIS_URL, type TeamOfGateways } from '../../support/team-of-gateways.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';

let upstream: FakeUpstream;
let team: TeamOfGateways | undefined;

beforeEach(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
});
afterEach(async () => {
  await team?.close();
  team = undefined;
  await upstream.close();
});

/** Follows an instance's live request feed and collects its entries. */
async function follow(on: TestGateway): Promise<{ entries: Json[]; stop(): void }> {
  const abort = new AbortController();
  const response = await on.request('/console/requests/stream', { signal: abort.signal });
  expect(response.status).toBe(200);
  const entries: Json[] = [];
  void (async () => {
    let text = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        const frames = text.split('\n\n');
        text = frames.pop()!;
        for (const frame of frames) if (frame.startsWith('data: ')) entries.push(JSON.parse(frame.slice(6)));
      }
    } catch {
      // aborted
    }
  })();
  return { entries, stop: () => abort.abort() };
}

const chat = (on: TestGateway, id: string, key?: string) =>
  on.request('/v1/chat/completions', {
    method: 'POST',
    headers: { 'x-request-id': id },
    ...(key ? { key } : {}),
    json: { model: 'svc-large-3', messages: [{ role: 'user', content: `hello ${id}` }] },
  });

describe("team mode: the console's live request feed fanned in from every instance", () => {
  it('shows the requests of both instances on either feed and list, each with its instance_id and without bodies from the other; a Member still gets 403; one instance prunes per period', async () => {
    team = await startTeamOfGateways(2, {
      config: { ...upstreamConfig(upstream), server: { request_log_bodies: true } },
    });
    const [a, b] = team.instances;
    const feedA = await follow(a);
    const feedB = await follow(b);

    expect((await chat(a, 'feed-on-a')).status).toBe(200);
    expect((await chat(b, 'feed-on-b')).status).toBe(200);
    const seen = (feed: { entries: Json[] }) =>
      Object.fromEntries(
        feed.entries.filter((entry) => entry.id.startsWith('feed-on-')).map((entry) => [entry.id, entry]),
      );
    for (const feed of [feedA, feedB]) {
      await expect.poll(() => Object.keys(seen(feed)).sort(), { timeout: 2000 }).toEqual(['feed-on-a', 'feed-on-b']);
      expect(seen(feed)['feed-on-a']).toMatchObject({
        instance_id: 'instance-a',
        status: 200,
        path: '/v1/chat/completions',
        model: 'svc-large-3-2512',
      });
      expect(seen(feed)['feed-on-b']).toMatchObject({ instance_id: 'instance-b', status: 200 });
    }
    // Bodies stay on the instance that served the request (and in the shared store); the summary goes out.
    expect(seen(feedA)['feed-on-a'].request_body).toContain('hello feed-on-a');
    expect(seen(feedA)['feed-on-a'].request_headers).toMatchObject({ authorization: '[redacted]' });
    expect(seen(feedA)['feed-on-b'].request_body).toBeUndefined();
    expect(seen(feedB)['feed-on-a'].request_body).toBeUndefined();
    expect(seen(feedB)['feed-on-a'].request_headers).toBeUndefined();
    expect(seen(feedB)['feed-on-a'].cost).toBe(seen(feedA)['feed-on-a'].cost);

    // A failure's code and message travel with the summary: the other instance's console can tell why.
    upstream.setBehaviour({ failure: { type: 'status', status: 500 }, times: 5 });
    const failed = await chat(a, 'feed-failed-on-a');
    upstream.setBehaviour(null);
    expect(failed.status).toBe(502);
    const failure = await json(failed);
    await expect
      .poll(() => feedB.entries.find((entry) => entry.id === 'feed-failed-on-a'), { timeout: 2000 })
      .toMatchObject({ status: 502, error_code: failure.code, error_message: failure.message });

    // The list (which the console merges with the feed) has both, on both instances.
    for (const on of [a, b]) {
      const listed = (await json(await on.request('/console/requests?path=/v1/chat'))).data.map(
        (entry: Json) => `${entry.id}@${entry.instance_id}`,
      );
      expect(listed).toEqual(expect.arrayContaining(['feed-on-a@instance-a', 'feed-on-b@instance-b']));
    }

    // The detail view of another instance's request reads it from the shared store, headers and bodies included.
    await expect
      .poll(async () => (await json(await b.request('/console/requests/feed-on-a'))).request_body, { timeout: 2000 })
      .toContain('hello feed-on-a');
    expect((await json(await b.request('/console/requests/feed-on-a'))).request_headers).toMatchObject({
      authorization: '[redacted]',
      'content-type': 'application/json',
    });

    // Owner scoping holds as alone: the feed and the list are the Owner's; a Member gets 403 on every instance.
    const member = await json(
      await a.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } }),
    );
    expect((await chat(b, 'feed-member', member.key)).status).toBe(200);
    for (const on of [a, b]) {
      expect((await on.request('/console/requests/stream', { key: member.key })).status).toBe(403);
      expect((await on.request('/console/requests', { key: member.key })).status).toBe(403);
    }
    await expect
      .poll(() => feedA.entries.some((entry) => entry.id === 'feed-member' && entry.instance_id === 'instance-b'), {
        timeout: 2000,
      })
      .toBe(true);
    feedA.stop();
    feedB.stop();

    // Pruning the shared log: the first instance to flush takes the turn for a minute, the other skips it.
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const key = `${team.prefix}request-log:prune`;
      await expect.poll(() => redis.get(key), { timeout: 2000 }).toMatch(/^instance-[ab]$/);
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      redis.disconnect();
    }
  });
});
