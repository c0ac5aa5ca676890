import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { chatLine, createChatBatch } from '../../support/chat-batch.js';
import { createMemberKey } from '../../support/latency-probe.js';
import { json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

const as = (gateway: TestGateway, key: string) => ({
  request: (path: string, init: RequestInit & { json?: unknown } = {}) => gateway.request(path, { ...init, key }),
});
type Caller = ReturnType<typeof as>;

function upload(caller: Caller, bytes: number) {
  const form = new FormData();
  form.set('purpose', 'user_data');
  form.set('file', new Blob(['x'.repeat(bytes)], { type: 'text/plain' }), 'notes.txt');
  return caller.request('/v1/files', { method: 'POST', body: form });
}

async function expectRefusal(response: Response, status: number, code: string, setting: string) {
  const body = await json(response);
  expect({ status: response.status, object: body.object, code: body.code }).toEqual({ status, object: 'error', code });
  expect(body.message).toContain(`quotas.${setting}`);
  expect(body).toHaveProperty('param');
  expect(body).toHaveProperty('type');
}

const agent = (caller: Caller, instructions = 'Be brief.') =>
  caller.request('/v1/agents', { method: 'POST', json: { name: 'helper', model: 'svc-large-3', instructions } });

describe('storage quotas per key', () => {
  it('files: the upload past the count is 403 files_quota_exceeded, past the bytes 413 file_storage_quota_exceeded; another key is not affected; deleting makes room', async () => {
    const gateway = await useGateway({ config: { quotas: { files_per_key: 3, file_storage_mb_per_key: 0.01 } } });
    const member = as(gateway, await createMemberKey(gateway, 'member'));
    const other = as(gateway, await createMemberKey(gateway, 'other'));

    const kept = [];
    for (let n = 0; n < 3; n++) {
      const response = await upload(member, 1000);
      expect(response.status).toBe(200);
      kept.push((await json(response)).id);
    }
    await expectRefusal(await upload(member, 1000), 403, 'files_quota_exceeded', 'files_per_key');
    expect((await upload(other, 1000)).status).toBe(200);

    expect((await member.request(`/v1/files/${kept[0]}`, { method: 'DELETE' })).status).toBe(200);
    // 2,000 bytes kept: 9,000 more pass the 10 KiB (10,485 bytes).
    await expectRefusal(await upload(member, 9000), 413, 'file_storage_quota_exceeded', 'file_storage_mb_per_key');
    expect((await upload(member, 1000)).status).toBe(200);
  });

  it('agents: the one past agents_per_key is 403; an agent over 128 KiB (the default agent_max_kb) is 413, on create and on update', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await useGateway({
      config: { ...upstreamConfig(upstream), quotas: { agents_per_key: 2, agent_all_versions_max_kb: 100 } },
    });
    const member = as(gateway, await createMemberKey(gateway, 'member'));
    const first = await json(await agent(member));
    expect((await agent(member)).status).toBe(200);
    await expectRefusal(await agent(member), 403, 'agents_quota_exceeded', 'agents_per_key');
    expect((await agent(as(gateway, await createMemberKey(gateway, 'other')))).status).toBe(200);

    // 70,000 two-byte characters: within the schema's 100,000 characters, 140 KB as JSON.
    await expectRefusal(
      await agent(as(gateway, await createMemberKey(gateway, 'third')), 'é'.repeat(70_000)),
      413,
      'agent_too_large',
      'agent_max_kb',
    );
    await expectRefusal(
      await member.request(`/v1/agents/${first.id}`, { method: 'PATCH', json: { instructions: 'é'.repeat(70_000) } }),
      413,
      'agent_too_large',
      'agent_max_kb',
    );
    // Versions add up: two of 40 KiB pass, the third passes the 100 KiB of every version together.
    for (let n = 0; n < 2; n++)
      expect(
        (
          await member.request(`/v1/agents/${first.id}`, {
            method: 'PATCH',
            json: { instructions: `${n}`.repeat(40 * 1024) },
          })
        ).status,
      ).toBe(200);
    await expectRefusal(
      await member.request(`/v1/agents/${first.id}`, {
        method: 'PATCH',
        json: { instructions: 'z'.repeat(40 * 1024) },
      }),
      413,
      'agent_versions_too_large',
      'agent_all_versions_max_kb',
    );
  });

  it('conversations: a stored conversation past conversations_per_key is 403; one with store: false is not stored and passes', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await useGateway({ config: { ...upstreamConfig(upstream), quotas: { conversations_per_key: 1 } } });
    const member = as(gateway, await createMemberKey(gateway, 'member'));
    const start = (body: Record<string, unknown> = {}) =>
      member.request('/v1/conversations', { method: 'POST', json: { model: 'svc-large-3', inputs: 'hello', ...body } });
    expect((await start()).status).toBe(200);
    await expectRefusal(await start(), 403, 'conversations_quota_exceeded', 'conversations_per_key');
    expect((await start({ store: false })).status).toBe(200);
  });

  it("conversations: a turn that would take a stored conversation's entries past conversation_max_mb is 413 before it runs; with store: false it runs", async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await useGateway({
      config: { ...upstreamConfig(upstream), quotas: { conversation_max_mb: 0.01 } },
    });
    const member = as(gateway, await createMemberKey(gateway, 'member'));
    const words = 'word '.repeat(800);
    const started = await member.request('/v1/conversations', {
      method: 'POST',
      json: { model: 'svc-large-3', inputs: words },
    });
    expect(started.status).toBe(200);
    const { conversation_id: id } = await json(started);
    const asked = upstream.requests.length;
    await expectRefusal(
      await member.request(`/v1/conversations/${id}`, { method: 'POST', json: { inputs: words } }),
      413,
      'conversation_too_large',
      'conversation_max_mb',
    );
    expect(upstream.requests.length).toBe(asked);
    expect(
      (await member.request(`/v1/conversations/${id}`, { method: 'POST', json: { inputs: words, store: false } }))
        .status,
    ).toBe(200);
  });

  it('batches: one more than unfinished_batches_per_key is 403 while the others run; it passes once they end', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 300 } });
    const gateway = await useGateway({
      config: { ...upstreamConfig(upstream), quotas: { unfinished_batches_per_key: 1 } },
    });
    const member = as(gateway, await createMemberKey(gateway, 'member'));
    const running = await createChatBatch(member, [chatLine('a')]);
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob([JSON.stringify(chatLine('b'))], { type: 'application/jsonl' }), 'input.jsonl');
    const file = await json(await member.request('/v1/files', { method: 'POST', body: form }));
    const create = () =>
      member.request('/v1/batches', {
        method: 'POST',
        json: { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' },
      });
    await expectRefusal(await create(), 403, 'batch_quota_exceeded', 'unfinished_batches_per_key');
    await expect
      .poll(async () => (await json(await member.request(`/v1/batches/${running.id}`))).status, { timeout: 10_000 })
      .toBe('completed');
    expect((await create()).status).toBe(200);
  });
});

describe('list pages', () => {
  it('a page of large agents stops at 8 MiB with has_more, and the next page (after its last id) goes on without a gap', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    const created = new Set<string>();
    // 100 agents of 95 KB: 9.5 MB in one page of 100 without the byte bound.
    for (let n = 0; n < 100; n++)
      created.add(
        (await json(await agent({ request: (path, init) => gateway.request(path, init) }, `${n % 10}`.repeat(95_000))))
          .id,
      );

    const first = await gateway.request('/v1/agents?limit=100');
    const firstText = await first.text();
    const page = JSON.parse(firstText);
    expect(firstText.length).toBeLessThanOrEqual(8 * 1024 * 1024 + 1024);
    expect(page.has_more).toBe(true);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.length).toBeLessThan(100);
    const rest = await json(await gateway.request(`/v1/agents?limit=100&after=${page.data.at(-1).id}`));
    expect(rest.has_more).toBe(false);
    expect(new Set([...page.data, ...rest.data].map((item: { id: string }) => item.id))).toEqual(created);
  });

  it('page sizes: Mistral-style page_size past 100 is a 422 naming it; pages by number read the right agents and batch jobs, with the real total', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    const big = await gateway.request('/v1/agents?page_size=1000');
    expect(big.status).toBe(422);
    expect((await json(big)).param).toMatch(/page_size/);
    expect((await gateway.request('/v1/conversations?page_size=1000')).status).toBe(422);
    const ids = [];
    for (let n = 0; n < 5; n++)
      ids.unshift((await json(await agent({ request: (path, init) => gateway.request(path, init) }))).id);
    const second = await json(await gateway.request('/v1/agents?page=1&page_size=2'));
    expect(second.map((item: { id: string }) => item.id)).toEqual(ids.slice(2, 4));

    const batches = [];
    for (let n = 0; n < 3; n++) batches.unshift((await createChatBatch(gateway, [chatLine(`line-${n}`)])).id);
    const jobs = await json(await gateway.request('/v1/batch/jobs?page=1&page_size=2'));
    expect({ ids: jobs.data.map((job: { id: string }) => job.id), total: jobs.total }).toEqual({
      ids: batches.slice(2),
      total: 3,
    });
  });
});

describe('uploads per key', () => {
  it("a key's fifth upload at once is 429 too_many_uploads while four stall; another key's upload passes; the key may upload again once they end", async () => {
    const gateway = await useGateway();
    const memberKey = await createMemberKey(gateway, 'member');
    const member = as(gateway, memberKey);
    const other = as(gateway, await createMemberKey(gateway, 'other'));
    const stalled = Array.from({ length: 4 }, () => {
      const boundary = 'stalled-upload';
      const request = httpRequest(`${gateway.url}/v1/files`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${memberKey}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(10_000_000),
        },
      });
      request.on('error', () => undefined);
      request.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n${'x'.repeat(1000)}`,
      );
      return request;
    });
    // The stalled uploads reach their handler first (an upload of the key's own in the meantime would take a slot).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const refused = await upload(member, 10);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await json(refused)).toMatchObject({ object: 'error', code: 'too_many_uploads', type: 'rate_limit_error' });
    expect((await upload(other, 10)).status).toBe(200);

    for (const request of stalled) request.destroy();
    await expect.poll(async () => (await upload(member, 10)).status, { timeout: 5000 }).toBe(200);
  });
});
