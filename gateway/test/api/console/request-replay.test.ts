import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

function replayConfig(fake: FakeUpstream, requestLogBodies = true) {
  const config = upstreamConfig(fake);
  config.models.push({
    id: 'svc-small-3',
    provider: 'upstream',
    upstream_model: 'small-model',
    capabilities: ['chat'],
    pricing: { input_per_million: 1, output_per_million: 3 },
  });
  return { ...config, server: { request_log_bodies: requestLogBodies } };
}

async function createMember(name: string): Promise<string> {
  const response = await gateway.request('/account/keys', { method: 'POST', json: { name, role: 'member' } });
  expect(response.status).toBe(201);
  return (await json(response)).key as string;
}

/** The request's log entry once it is logged (entries are written once the answer has left). */
async function loggedEntry(id: string): Promise<Json> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await gateway.request(`/console/requests/${id}`);
    if (response.status === 200) return json(response);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${id} was never logged`);
}

async function chat(id: string, body: Record<string, unknown>, key?: string): Promise<Response> {
  const response = await gateway.request('/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'x-request-id': id },
    json: { model: 'svc-large-3-2512', ...body },
  });
  await loggedEntry(id);
  return response;
}

const replay = (id: string, body?: unknown, key?: string) =>
  gateway.request(`/console/requests/${id}/replay`, {
    method: 'POST',
    key,
    ...(body === undefined ? {} : { json: body }),
  });

const usageOf = async (key: string) =>
  (await json(await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': key } }))).usage as Json;

describe('POST /console/requests/{id}/replay', () => {
  beforeEach(async () => {
    upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await useGateway({ config: replayConfig(upstream) });
  });

  it('sends the logged request again through the gateway, to its model or another, and logs it as a new request', async () => {
    expect((await chat('original-1', { messages: [{ role: 'user', content: 'say it again' }] })).status).toBe(200);

    const same = await replay('original-1');
    expect(same.status).toBe(200);
    const answer = await json(same);
    expect(answer).toMatchObject({
      object: 'request.replay',
      replay_of: 'original-1',
      status: 200,
      model: 'svc-large-3-2512',
      stream: false,
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
      body: { object: 'chat.completion', choices: [{ message: { content: 'say it again' } }] },
    });
    expect(answer.cost).toBeGreaterThan(0);
    expect(answer.ttft_ms).toBeUndefined();
    expect(answer.request_id).not.toBe('original-1');
    expect(upstream.requests.at(-1)!.body).toMatchObject({
      model: 'my-model',
      messages: [{ role: 'user', content: 'say it again' }],
    });
    const logged = await loggedEntry(answer.request_id as string);
    expect(logged).toMatchObject({ path: '/v1/chat/completions', status: 200, client: 'replay', cost: answer.cost });

    const other = await json(await replay('original-1', { model: 'svc-small-3' }));
    expect(other).toMatchObject({ status: 200, model: 'svc-small-3', body: { object: 'chat.completion' } });
    expect(upstream.requests.at(-1)!.body).toMatchObject({ model: 'small-model' });
    // Priced as the model it went to: the small one costs a third of the large.
    expect(other.cost).toBeLessThan(answer.cost as number);

    // A model no route serves is the replayed request's own 404, reported, not a failed replay.
    const unknown = await json(await replay('original-1', { model: 'no-such-model' }));
    expect(unknown).toMatchObject({ status: 404, body: { object: 'error', code: 'model_not_found' } });
  });

  it('replays a streamed request streamed, with its time to first token and its frames put back together', async () => {
    await chat('streamed-1', {
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const answer = await json(await replay('streamed-1'));
    expect(answer).toMatchObject({
      status: 200,
      stream: true,
      body: {
        object: 'chat.completion',
        model: 'svc-large-3-2512',
        choices: [{ index: 0, message: { role: 'assistant', content: 'one two three' }, finish_reason: 'stop' }],
      },
    });
    expect(answer.ttft_ms).toBeGreaterThan(0);
    expect(answer.ttft_ms).toBeLessThanOrEqual(answer.latency_ms as number);
    expect(upstream.requests.at(-1)!.body).toMatchObject({ stream: true });
  });

  it('stops the replayed request when the caller goes away', async () => {
    // Timeouts longer than the test: only the caller's leaving can end the upstream call.
    const config = replayConfig(upstream);
    config.providers[0].timeouts = { connect: 2000, first_byte: 120_000, idle: 120_000 };
    gateway = await useGateway({ config });
    await chat('to-abandon', { messages: [{ role: 'user', content: 'a b c d' }], stream: true });
    upstream.setBehaviour({ failure: { type: 'hang_mid_stream', afterFrames: 1 }, path: '/v1/chat/completions' });
    const controller = new AbortController();
    const pending = gateway
      .request('/console/requests/to-abandon/replay', { method: 'POST', json: {}, signal: controller.signal })
      .catch((error: unknown) => error);
    for (let attempt = 0; attempt < 250 && upstream.requests.length < 2; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const replayed = upstream.requests.at(-1)!;
    controller.abort();
    await pending;
    await replayed.settled;
    expect(replayed.aborted).toBe(true);
  });

  it('is allowed to the key that made the request and to an Owner, billed to the caller; another key is told it does not exist', async () => {
    const memberA = await createMember('member A');
    const memberB = await createMember('member B');
    await chat('from-a', { messages: [{ role: 'user', content: 'mine' }] }, memberA);
    const before = await usageOf(memberA);

    const own = await json(await replay('from-a', undefined, memberA));
    expect(own).toMatchObject({ status: 200, body: { choices: [{ message: { content: 'mine' } }] } });
    const afterOwn = await usageOf(memberA);
    expect(own.cost).toBeGreaterThan(0);
    expect(afterOwn.total_cost).toBeCloseTo((before.total_cost as number) + (own.cost as number), 9);

    for (const id of ['from-a', 'no-such-request']) {
      const refused = await replay(id, undefined, memberB);
      expect(refused.status).toBe(404);
      expect(await json(refused)).toMatchObject({
        object: 'error',
        type: 'not_found_error',
        code: 'request_not_found',
      });
    }

    // The Owner's replay of A's request is the Owner's: A's usage does not move.
    const byOwner = await json(await replay('from-a'));
    expect(byOwner.status).toBe(200);
    expect(byOwner.cost).toBeGreaterThan(0);
    expect((await usageOf(memberA)).total_cost).toBe(afterOwn.total_cost);
    const original = await loggedEntry('from-a');
    const replayed = await loggedEntry(byOwner.request_id as string);
    expect(replayed.key_id).toEqual(expect.any(String));
    expect(replayed.key_id).not.toBe(original.key_id);
    expect(replayed.key_prefix).not.toBe(original.key_prefix);
    expect((await loggedEntry(own.request_id as string)).key_id).toBe(original.key_id);
  });

  it("counts as one request against the key's rate limit, refused whole once the limit is reached", async () => {
    const created = await gateway.request('/account/keys', {
      method: 'POST',
      json: { name: 'tight', role: 'member', rpm_limit: 3 },
    });
    const tight = (await json(created)).key as string;
    await chat('tight-1', { messages: [{ role: 'user', content: 'again' }] }, tight);

    for (let replays = 0; replays < 2; replays++) {
      const answer = await replay('tight-1', undefined, tight);
      expect(answer.status).toBe(200);
      expect(await json(answer)).toMatchObject({ status: 200, body: { choices: [{ message: { content: 'again' } }] } });
    }
    const sent = upstream.requests.length;
    const refused = await replay('tight-1', undefined, tight);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toEqual(expect.any(String));
    expect(await json(refused)).toMatchObject({ object: 'error', code: 'rate_limit_exceeded' });
    expect(upstream.requests).toHaveLength(sent);
  });

  it('refuses what cannot be sent again: uploads, calls that change stored state, and bad input', async () => {
    const form = new FormData();
    form.set('purpose', 'user_data');
    form.set('file', new Blob(['some notes'], { type: 'text/plain' }), 'notes.txt');
    const upload = await gateway.request('/v1/files', {
      method: 'POST',
      body: form,
      headers: { 'x-request-id': 'upload-1' },
    });
    expect(upload.status).toBe(200);
    await loggedEntry('upload-1');
    const multipart = await replay('upload-1');
    expect(multipart.status).toBe(409);
    expect(await json(multipart)).toMatchObject({
      code: 'request_not_replayable',
      message: expect.stringMatching(/multipart/),
    });

    const keyCreation = await gateway.request('/account/keys', {
      method: 'POST',
      json: { name: 'x', role: 'member' },
      headers: { 'x-request-id': 'new-key-1' },
    });
    expect(keyCreation.status).toBe(201);
    await loggedEntry('new-key-1');
    const refused = await replay('new-key-1');
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ code: 'request_not_replayable' });

    await chat('original-2', { messages: [{ role: 'user', content: 'x' }] });
    for (const body of [{ model: 5 }, { model: '' }, { temperature: 1 }]) {
      const bad = await replay('original-2', body);
      expect(bad.status).toBe(422);
      expect(await json(bad)).toMatchObject({ object: 'error' });
    }
  });

  it('says the body was not kept, or kept only in part, instead of sending something else', async () => {
    await chat('long-1', { messages: [{ role: 'user', content: 'word '.repeat(2000) }] });
    const cut = await replay('long-1');
    expect(cut.status).toBe(409);
    expect(await json(cut)).toMatchObject({
      code: 'request_body_not_kept',
      message: expect.stringMatching(/beginning/),
    });

    const withoutBodies = await useGateway({ config: replayConfig(upstream, false) });
    gateway = withoutBodies;
    await chat('unkept-1', { messages: [{ role: 'user', content: 'x' }] });
    const notKept = await replay('unkept-1');
    expect(notKept.status).toBe(409);
    expect(await json(notKept)).toMatchObject({
      type: 'conflict_error',
      code: 'request_body_not_kept',
      message: expect.stringMatching(/request_log_bodies/),
    });
  });
});
