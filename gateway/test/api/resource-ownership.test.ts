import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { ADMIN_KEY, json, type Json, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../support/use-resources.js';

let upstream: FakeUpstream;
let gateway: TestGateway;
let memberA: string;
let memberB: string;

function ownershipConfig(fake: FakeUpstream) {
  const config = upstreamConfig(fake);
  config.models.push({
    id: 'svc-vision-3-1-2505',
    provider: 'upstream',
    upstream_model: 'painter',
    capabilities: ['image_generation'],
    image_sizes: ['64x64'],
  });
  return config;
}

async function createMember(name: string): Promise<string> {
  const response = await gateway.request('/account/keys', { method: 'POST', json: { name, role: 'member' } });
  expect(response.status).toBe(201);
  return (await json(response)).key as string;
}

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await useGateway({ config: ownershipConfig(upstream) });
  memberA = await createMember('member A');
  memberB = await createMember('member B');
});

const as = (key: string) => ({
  get: (path: string) => gateway.request(path, { key }),
  post: (path: string, body?: unknown) =>
    gateway.request(path, { method: 'POST', key, ...(body === undefined ? {} : { json: body }) }),
  patch: (path: string, body: unknown) => gateway.request(path, { method: 'PATCH', key, json: body }),
  delete: (path: string) => gateway.request(path, { method: 'DELETE', key }),
});

async function upload(key: string, text: string): Promise<string> {
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set('file', new Blob([text], { type: 'application/jsonl' }), 'input.jsonl');
  const response = await gateway.request('/v1/files', { method: 'POST', body: form, key });
  expect(response.status).toBe(200);
  return (await json(response)).id as string;
}

const ids = async (response: Response) => ((await json(response)).data as Json[]).map((entry) => entry.id as string);

async function expectNotFound(response: Response, code: string) {
  expect(response.status).toBe(404);
  expect(await json(response)).toMatchObject({ object: 'error', type: 'not_found_error', code });
}

const chatLine = (id: string) =>
  JSON.stringify({
    custom_id: id,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model: 'svc-large-3', messages: [{ role: 'user', content: id }] },
  });

describe('stored resources belong to the key that created them', () => {
  it('files: a Member lists, reads, downloads and deletes only its own; the Owner sees all; foreign ids answer 404', async () => {
    const fileA = await upload(memberA, chatLine('a'));
    const fileOwner = await upload(ADMIN_KEY, chatLine('o'));

    expect(await ids(await as(memberA).get('/v1/files'))).toEqual([fileA]);
    expect(await ids(await as(memberB).get('/v1/files'))).toEqual([]);
    expect((await ids(await as(ADMIN_KEY).get('/v1/files'))).sort()).toEqual([fileA, fileOwner].sort());

    for (const path of [`/v1/files/${fileA}`, `/v1/files/${fileA}/content`]) {
      await expectNotFound(await as(memberB).get(path), 'file_not_found');
      expect((await as(memberA).get(path)).status).toBe(200);
      expect((await as(ADMIN_KEY).get(path)).status).toBe(200);
    }
    await expectNotFound(await as(memberA).get(`/v1/files/${fileOwner}`), 'file_not_found');
    await expectNotFound(await as(memberA).get(`/v1/files/${fileOwner}/content`), 'file_not_found');
    // A foreign id and an id that never existed answer alike.
    const foreign = await json(await as(memberB).get(`/v1/files/${fileA}`));
    const missing = await json(await as(memberB).get('/v1/files/file-doesnotexist'));
    expect(Object.keys(foreign)).toEqual(Object.keys(missing));

    await expectNotFound(await as(memberB).delete(`/v1/files/${fileA}`), 'file_not_found');
    await expectNotFound(await as(memberA).delete(`/v1/files/${fileOwner}`), 'file_not_found');
    expect((await as(memberA).get(`/v1/files/${fileA}/content`)).status).toBe(200);
    expect((await as(ADMIN_KEY).get(`/v1/files/${fileOwner}`)).status).toBe(200);

    expect((await as(memberA).delete(`/v1/files/${fileA}`)).status).toBe(200);
    expect((await as(ADMIN_KEY).delete(`/v1/files/${fileOwner}`)).status).toBe(200);
  });

  it("batches: only the creator (or the Owner) lists, reads and cancels one; its output files are the creator's", async () => {
    const fileA = await upload(memberA, chatLine('a'));
    await expectNotFound(
      await as(memberB).post('/v1/batch', { input_file_id: fileA, endpoint: '/v1/chat/completions' }),
      'file_not_found',
    );
    const created = await as(memberA).post('/v1/batch', { input_file_id: fileA, endpoint: '/v1/chat/completions' });
    expect(created.status).toBe(200);
    const batchId = (await json(created)).id as string;
    await expect
      .poll(async () => (await json(await as(memberA).get(`/v1/batch/${batchId}`))).status, { timeout: 20_000 })
      .toBe('completed');

    for (const base of ['/v1/batch', '/v1/batches']) {
      expect(await ids(await as(memberA).get(base))).toEqual([batchId]);
      expect(await ids(await as(memberB).get(base))).toEqual([]);
      expect(await ids(await as(ADMIN_KEY).get(base))).toEqual([batchId]);
      await expectNotFound(await as(memberB).get(`${base}/${batchId}`), 'batch_not_found');
      // Cancel: the creator learns the batch is finished (409); anyone else learns nothing (404).
      await expectNotFound(await as(memberB).post(`${base}/${batchId}/cancel`), 'batch_not_found');
      expect((await as(memberA).post(`${base}/${batchId}/cancel`)).status).toBe(409);
      expect((await as(ADMIN_KEY).post(`${base}/${batchId}/cancel`)).status).toBe(409);
    }

    const outputId = (await json(await as(memberA).get(`/v1/batch/${batchId}`))).output_file_id as string;
    expect(outputId).toMatch(/^file-/);
    expect((await as(memberA).get(`/v1/files/${outputId}/content`)).status).toBe(200);
    expect((await as(ADMIN_KEY).get(`/v1/files/${outputId}/content`)).status).toBe(200);
    await expectNotFound(await as(memberB).get(`/v1/files/${outputId}/content`), 'file_not_found');
    expect(await ids(await as(memberA).get('/v1/files?purpose=batch_output'))).toEqual([outputId]);
    expect(await ids(await as(memberB).get('/v1/files?purpose=batch_output'))).toEqual([]);
  });

  it("agents: a Member cannot read, change, delete or run another key's agent; the Owner manages all", async () => {
    const ownerAgent = (
      await json(
        await as(ADMIN_KEY).post('/v1/agents', {
          name: 'owner agent',
          model: 'svc-large-3',
          instructions: 'owner secret instructions',
        }),
      )
    ).id as string;
    const agentA = (await json(await as(memberA).post('/v1/agents', { name: 'agent A', model: 'svc-large-3' })))
      .id as string;

    expect(await ids(await as(memberA).get('/v1/agents'))).toEqual([agentA]);
    expect(await ids(await as(memberB).get('/v1/agents'))).toEqual([]);
    expect((await ids(await as(ADMIN_KEY).get('/v1/agents'))).sort()).toEqual([ownerAgent, agentA].sort());

    await expectNotFound(await as(memberA).get(`/v1/agents/${ownerAgent}`), 'agent_not_found');
    await expectNotFound(await as(memberA).patch(`/v1/agents/${ownerAgent}`, { name: 'hijacked' }), 'agent_not_found');
    await expectNotFound(await as(memberA).delete(`/v1/agents/${ownerAgent}`), 'agent_not_found');
    await expectNotFound(
      await as(memberA).post('/v1/agents/completions', {
        agent_id: ownerAgent,
        messages: [{ role: 'user', content: 'hi' }],
      }),
      'agent_not_found',
    );
    await expectNotFound(await as(memberB).get(`/v1/agents/${agentA}`), 'agent_not_found');
    expect(upstream.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(0);

    const owners = await json(await as(ADMIN_KEY).get(`/v1/agents/${ownerAgent}`));
    expect(owners).toMatchObject({ name: 'owner agent', instructions: 'owner secret instructions' });
    expect(
      (
        await as(memberA).post('/v1/agents/completions', {
          agent_id: agentA,
          messages: [{ role: 'user', content: 'hi' }],
        })
      ).status,
    ).toBe(200);
    expect((await as(memberA).patch(`/v1/agents/${agentA}`, { name: 'renamed' })).status).toBe(200);
    expect((await as(ADMIN_KEY).get(`/v1/agents/${agentA}`)).status).toBe(200);
    expect((await as(ADMIN_KEY).delete(`/v1/agents/${agentA}`)).status).toBe(204);
    await expectNotFound(await as(memberA).get(`/v1/agents/${agentA}`), 'agent_not_found');
  });

  it("conversations: a Member cannot read, continue, branch or delete another key's conversation, nor start one on another key's agent", async () => {
    const ownerAgent = (
      await json(await as(ADMIN_KEY).post('/v1/agents', { name: 'owner agent', model: 'svc-large-3' }))
    ).id as string;
    const started = await json(await as(memberA).post('/v1/conversations', { model: 'svc-large-3', inputs: 'hello' }));
    const conversation = started.conversation_id as string;
    const history = await json(await as(memberA).get(`/v1/conversations/${conversation}/history`));
    const entry = history.entries[0].id as string;

    expect((await json(await as(memberB).get('/v1/conversations'))).map((entry: Json) => entry.id)).toEqual([]);
    await expectNotFound(await as(memberB).get(`/v1/conversations/${conversation}`), 'conversation_not_found');
    await expectNotFound(
      await as(memberB).post(`/v1/conversations/${conversation}`, { inputs: 'more' }),
      'conversation_not_found',
    );
    await expectNotFound(
      await as(memberB).post(`/v1/conversations/${conversation}/restart`, { inputs: 'branch', from_entry_id: entry }),
      'conversation_not_found',
    );
    await expectNotFound(await as(memberB).delete(`/v1/conversations/${conversation}`), 'conversation_not_found');
    await expectNotFound(
      await as(memberA).post('/v1/conversations', { agent_id: ownerAgent, inputs: 'hi' }),
      'agent_not_found',
    );

    expect((await as(ADMIN_KEY).get(`/v1/conversations/${conversation}`)).status).toBe(200);
    expect((await as(memberA).delete(`/v1/conversations/${conversation}`)).status).toBe(204);
  });

  it('agents stored before ownership was recorded are visible to Owners only, also after a restart', async () => {
    await sql`INSERT INTO agents (id, name, model, tools, created_at) VALUES ('ag_legacy', 'legacy', 'svc-large-3', '[]', 1)`.execute(
      gateway.control.db.query,
    );
    const dataDir = gateway.dataDir;
    await gateway.stop();
    gateway = await useGateway({ dataDir, config: ownershipConfig(upstream) });
    expect((await as(ADMIN_KEY).get('/v1/agents/ag_legacy')).status).toBe(200);
    await expectNotFound(await as(memberA).get('/v1/agents/ag_legacy'), 'agent_not_found');
    expect(await ids(await as(memberA).get('/v1/agents'))).toEqual([]);
  });

  it('generated images are files of the key that asked for them', async () => {
    const response = await as(memberA).post('/v1/vision/generate', {
      model: 'svc-vision-3-1-2505',
      prompt: 'a red square',
      size: '64x64',
    });
    expect(response.status).toBe(200);
    const fileId = (await json(response)).data[0].file_id as string;
    expect((await as(memberA).get(`/v1/files/${fileId}/content`)).status).toBe(200);
    expect((await as(ADMIN_KEY).get(`/v1/files/${fileId}/content`)).status).toBe(200);
    await expectNotFound(await as(memberB).get(`/v1/files/${fileId}/content`), 'file_not_found');
    expect(await ids(await as(memberB).get('/v1/files?purpose=image_generation'))).toEqual([]);
    expect(await ids(await as(memberA).get('/v1/files?purpose=image_generation'))).toEqual([fileId]);
  });
});
