import { Mistral } from '@mistralai/mistralai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage } from '../support/draw-text.js';
import { startFakeUpstream } from '../support/fake-upstream.js';
import { UPSTREAM_KEY } from '../support/upstream-config.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../support/start-gateway.js';

/** The gateway as a new user gets it (no config, no model files), called with the model names Mistral's and OpenAI's docs use. */
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
});

const mistral = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });
const openai = () => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

describe('model names other tools send, on the local engines', () => {
  it('/v1/models lists the names as aliases of the models that serve them', async () => {
    const models = (await json(await gateway.request('/v1/models'))).data as Json[];
    const aliasesOf = (id: string) => models.find((model) => model.id === id)?.aliases as string[];
    expect(aliasesOf('svc-ocr-3-2512')).toEqual(
      expect.arrayContaining(['svc-ocr-latest', 'mistral-ocr-latest', 'mistral-ocr-2505', 'mistral-ocr-2512']),
    );
    expect(aliasesOf('svc-embed-local')).toEqual(
      expect.arrayContaining(['mistral-embed', 'text-embedding-3-small', 'text-embedding-3-large']),
    );
    expect(aliasesOf('svc-transcribe-1-2507')).toEqual(expect.arrayContaining(['whisper-1', 'voxtral-mini-latest']));
  });

  it("Mistral's SDK: ocr.process with mistral-ocr-latest and embeddings.create with mistral-embed", async () => {
    const page = await drawTextImage([{ text: 'Invoice total 42.50 EUR', x: 40, y: 80, size: 32 }], {
      width: 640,
      height: 160,
    });
    const result = await mistral().ocr.process({
      model: 'mistral-ocr-latest',
      document: { type: 'image_url', imageUrl: `data:image/png;base64,${page.image.toString('base64')}` },
    });
    expect(result.pages[0]!.markdown).toMatch(/Invoice total 42\.50/);
    const embedded = await mistral().embeddings.create({ model: 'mistral-embed', inputs: ['one sentence', 'another'] });
    expect(embedded.data).toHaveLength(2);
    expect(embedded.data[0]!.embedding).toHaveLength(384);
  });

  it("OpenAI's SDK: embeddings.create with text-embedding-3-small", async () => {
    const result = await openai().embeddings.create({ model: 'text-embedding-3-small', input: 'Hello, world' });
    expect(result.data[0]!.embedding).toHaveLength(384);
  });

  it('embeddings without a model go to the built-in embedding model, not to a chat model that is not there', async () => {
    const response = await gateway.request('/v1/embeddings', { method: 'POST', json: { input: 'no model named' } });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      object: 'list',
      model: 'svc-embed-local',
      data: [{ object: 'embedding', index: 0 }],
    });
  });

  it('model_not_found names the models that serve the request, and for chat says a model can be downloaded from the console', async () => {
    const ocr = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: { model: 'mistral-ocr-1999', document: { type: 'image_url', image_url: 'data:image/png;base64,AAAA' } },
    });
    expect(ocr.status).toBe(404);
    const ocrError = await json(ocr);
    expect(ocrError).toMatchObject({ object: 'error', code: 'model_not_found', param: 'model' });
    expect(ocrError.message).toMatch(/Models that serve ocr here: svc-ocr-3-2512/);
    expect(ocrError.message).not.toMatch(/\.gguf/);

    const embeddings = await json(
      await gateway.request('/v1/embeddings', { method: 'POST', json: { model: 'nomic-embed', input: 'x' } }),
    );
    expect(embeddings).toMatchObject({
      code: 'model_not_found',
      message: expect.stringMatching(/Models that serve embeddings here: svc-embed-local/),
    });

    const chat = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'llama-9', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(404);
    expect((await json(chat)).message).toMatch(/No model serves chat here\. Download one from the console/);
    const withoutModel = await json(
      await gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { messages: [{ role: 'user', content: 'hi' }] },
      }),
    );
    expect(withoutModel).toMatchObject({
      code: 'model_not_found',
      message: expect.stringMatching(/No model serves chat here\. Download one from the console/),
    });
    await expect(
      openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toThrow(/Download one from the console/);
  });
});

describe('defaults follow what is served', () => {
  it('an agent created without a model takes a chat model that is served, not a default that is not there', async () => {
    const upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    const only = await startGateway({
      config: {
        providers: [{ id: 'up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY }],
        models: [{ id: 'team-chat', provider: 'up', upstream_model: 'm', capabilities: ['chat'] }],
      },
    });
    try {
      const created = await only.request('/v1/agents', { method: 'POST', json: { name: 'helper' } });
      expect(created.status).toBe(200);
      expect(await json(created)).toMatchObject({ object: 'agent', model: 'team-chat' });
      const answered = await only.request('/v1/chat/completions', {
        method: 'POST',
        json: { messages: [{ role: 'user', content: 'no model named' }] },
      });
      expect(await json(answered)).toMatchObject({ object: 'chat.completion', model: 'team-chat' });
    } finally {
      await only.close();
      await upstream.close();
    }
  });
});
