import { Mistral } from '@mistralai/mistralai';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';

/** Every name, label and metadata field has a documented length limit: a longer value is a 422 naming the field. */
let upstream: FakeUpstream;
let gateway: TestGateway;
let batchFileId: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  const base = upstreamConfig(upstream);
  gateway = await startGateway({
    config: {
      ...base,
      models: [
        ...base.models,
        {
          id: 'ft:svc-large-3-2512:acme:7e77',
          provider: 'upstream',
          upstream_model: 'my-model-ft',
          capabilities: ['chat'],
        },
      ],
    },
  });
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set(
    'file',
    new Blob([
      JSON.stringify({ custom_id: 'a', body: { model: 'svc-large-3', messages: [{ role: 'user', content: 'x' }] } }),
    ]),
    'input.jsonl',
  );
  batchFileId = (await json(await gateway.request('/v1/files', { method: 'POST', body: form }))).id;
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const long = (length: number) => 'x'.repeat(length);
const post = (path: string, body: unknown, method = 'POST') => gateway.request(path, { method, json: body });
async function expectRefused(response: Response, param: string | RegExp) {
  expect(response.status).toBe(422);
  const body = await json(response);
  expect(body).toMatchObject({ object: 'error', type: 'invalid_request_error' });
  if (typeof param === 'string') expect(body.param).toBe(param);
  else expect(body.param).toMatch(param);
  return body;
}

describe('metadata: at most 16 pairs, keys up to 64 characters, values up to 512 (OpenAI)', () => {
  const batch = (metadata: Record<string, string>, path = '/v1/batch') =>
    post(path, { input_file_id: batchFileId, endpoint: '/v1/chat/completions', metadata });

  it('a batch takes values of 512 characters and 16 pairs, and refuses 513, a 17th pair or a 65-character key', async () => {
    const fits = Object.fromEntries(
      Array.from({ length: 16 }, (_, index) => [`${long(62)}${String(index).padStart(2, '0')}`, long(512)]),
    );
    expect((await batch(fits)).status).toBe(200);
    const value = await expectRefused(await batch({ team: long(5000) }), 'metadata.team');
    expect(value.message).toMatch(/512 characters/);
    await expectRefused(await batch({ ...fits, one_more: 'x' }, '/v1/batches'), 'metadata');
    await expectRefused(await batch({ [long(65)]: 'x' }), 'metadata');
  });

  it('the same through the official SDKs: openai batches.create and Mistral batch.jobs.create', async () => {
    const openai = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const file = await openai.files.create({
      file: await toFile(
        Buffer.from(
          `${JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'svc-large-3', messages: [{ role: 'user', content: 'x' }] } })}\n`,
        ),
        'b.jsonl',
      ),
      purpose: 'batch',
    });
    await expect(
      openai.batches.create({
        input_file_id: file.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
        metadata: { note: long(600) },
      }),
    ).rejects.toMatchObject({ status: 422, error: { param: 'metadata.note' } });
    const mistral = new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });
    const refused = mistral.batch.jobs.create({
      inputFiles: [file.id],
      endpoint: '/v1/chat/completions',
      metadata: { note: long(600) },
    });
    await expect(refused).rejects.toMatchObject({
      statusCode: 422,
      body: expect.stringContaining('"param":"metadata.note"'),
    });
  });

  it("a fine-tuned model's metadata, name and description, and a conversation's", async () => {
    const model = 'ft:svc-large-3-2512:acme:7e77';
    await expectRefused(await post(`/v1/models/${model}`, { metadata: { k: long(513) } }, 'PATCH'), 'metadata.k');
    await expectRefused(await post(`/v1/models/${model}`, { name: long(201) }, 'PATCH'), 'name');
    await expectRefused(
      await post(`/v1/fine_tuning/models/${model}`, { description: long(2001) }, 'PATCH'),
      'description',
    );
    expect((await post(`/v1/models/${model}`, { metadata: { k: long(512) }, name: long(200) }, 'PATCH')).status).toBe(
      200,
    );
    await expectRefused(
      await post('/v1/conversations', { model: 'svc-large-3', inputs: 'hi', metadata: { k: long(513) } }),
      'metadata.k',
    );
    await expectRefused(
      await post('/v1/conversations', { model: 'svc-large-3', inputs: 'hi', name: long(201) }),
      'name',
    );
  });
});

describe('names and labels', () => {
  it('API key names, agent names and descriptions, the account name', async () => {
    await expectRefused(await post('/account/keys', { name: long(1300), role: 'member' }), 'name');
    expect((await post('/account/keys', { name: long(200), role: 'member' })).status).toBe(201);
    await expectRefused(await post('/v1/agents', { name: long(201), model: 'svc-large-3' }), 'name');
    await expectRefused(
      await post('/v1/agents', { name: 'ok', model: 'svc-large-3', description: long(2001) }),
      'description',
    );
    await expectRefused(await post('/account/balance', { full_name: long(201) }, 'PATCH'), 'full_name');
  });

  it("an uploaded file's name, a tool's function name, a route's id and aliases in Settings", async () => {
    const form = new FormData();
    form.set('purpose', 'user_data');
    form.set('file', new Blob(['hello']), `${long(300)}.txt`);
    const upload = await gateway.request('/v1/files', { method: 'POST', body: form });
    const refused = await expectRefused(upload, 'file');
    expect(refused.message).toMatch(/255 characters/);
    const tools = [{ type: 'function', function: { name: long(65), parameters: { type: 'object' } } }];
    await expectRefused(
      await post('/v1/chat/completions', { model: 'svc-large-3', messages: [{ role: 'user', content: 'x' }], tools }),
      'tools[0].function.name',
    );
    await expectRefused(
      await post(
        '/settings/routes/extra',
        { provider: 'upstream', capabilities: ['chat'], aliases: [long(201)] },
        'PUT',
      ),
      'aliases[0]',
    );
  });

  it('the OpenAPI document shows the limits', async () => {
    const spec = await json(await gateway.request('/openapi.json'));
    const create = spec.paths['/v1/batch'].post.requestBody.content['application/json'].schema;
    expect(create.properties.metadata).toMatchObject({ maxProperties: 16, propertyNames: { maxLength: 64 } });
    expect(JSON.stringify(create.properties.metadata)).toContain('"maxLength":512');
    const keys = spec.paths['/account/keys'].post.requestBody.content['application/json'].schema as Json;
    expect(keys.properties.name.maxLength).toBe(200);
  });
});
