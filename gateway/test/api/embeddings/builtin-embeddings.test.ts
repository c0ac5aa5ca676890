import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';

/** The gateway as a new user gets it: no config file entries, no model files, no network. */
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
});

const cosine = (a: number[], b: number[]): number => a.reduce((sum, value, index) => sum + value * b[index], 0);

describe('the built-in embedding model', () => {
  it('is listed in /models and embeds with no config or download: a paraphrase scores higher than an unrelated sentence', async () => {
    const listed = (await json(await gateway.request('/models'))).data.find(
      (model: Json) => model.id === 'svc-embed-local',
    );
    expect(listed).toMatchObject({ capabilities: ['embeddings'], owned_by: 'switchyard-local' });

    const response = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: {
        model: 'svc-embed-local',
        input: ['A man is playing a guitar.', 'Someone plays the guitar.', 'The stock market fell sharply today.'],
      },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      object: 'list',
      model: 'svc-embed-local',
      data: [{ object: 'embedding', index: 0 }, { index: 1 }, { index: 2 }],
    });
    const [guitar, paraphrase, unrelated] = body.data.map((item: Json) => item.embedding as number[]);
    expect(guitar).toHaveLength(384);
    expect(cosine(guitar, guitar)).toBeCloseTo(1, 4);
    expect(cosine(guitar, paraphrase)).toBeGreaterThan(0.6);
    expect(cosine(guitar, paraphrase)).toBeGreaterThan(cosine(guitar, unrelated) + 0.4);
    expect(body.usage.prompt_tokens).toBeGreaterThan(10);
  });

  it('answers the official openai SDK (base64 by default)', async () => {
    const client = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1` });
    const result = await client.embeddings.create({ model: 'svc-embed-local', input: 'Hello, world' });
    expect(result.data[0].embedding).toHaveLength(384);
    const norm = Math.sqrt(result.data[0].embedding.reduce((sum, value) => sum + value * value, 0));
    expect(norm).toBeCloseTo(1, 3);
  });

  it('refuses text longer than the model reads, and empty text, in the error shape', async () => {
    const long = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { model: 'svc-embed-local', input: 'word '.repeat(400) },
    });
    expect(long.status).toBe(422);
    expect(await json(long)).toMatchObject({ object: 'error', code: 'context_length_exceeded', param: 'input' });
    const wrongSize = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { model: 'svc-embed-local', input: 'x', dimensions: 99 },
    });
    expect((await json(wrongSize)).param).toBe('dimensions');
  });
});

describe("the built-in embedding model's memory", () => {
  let idle: TestGateway;
  beforeAll(async () => {
    // Idle long enough that the model is still loaded when /status is asked right after an answer on a busy machine.
    idle = await startGateway({
      warm: true,
      config: { providers: [{ id: 'local-embed', type: 'onnx-embeddings', idle_unload_ms: 1500 }] },
    });
  });
  afterAll(async () => {
    await idle.close();
  });
  const engineState = async () => (await json(await idle.request('/status'))).engines['local-embed'].state as string;
  const embed = () =>
    idle.request('/v1/embeddings', { method: 'POST', json: { model: 'svc-embed-local', input: 'Hello' } });

  it('is not loaded at start, loads on the first request, unloads when idle and loads again when asked', async () => {
    await expect.poll(async () => (await idle.request('/status')).status, { timeout: 30_000 }).toBe(200);
    expect(await engineState()).toBe('cold');
    expect((await embed()).status).toBe(200);
    expect(await engineState()).toBe('ready');
    await expect.poll(engineState, { timeout: 10_000, interval: 100 }).toBe('cold');
    const again = await embed();
    expect(again.status).toBe(200);
    expect((await json(again)).data[0].embedding).toHaveLength(384);
  });
});
