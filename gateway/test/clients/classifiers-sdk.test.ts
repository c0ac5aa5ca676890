import { Mistral } from '@mistralai/mistralai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { ADMIN_KEY, startGateway, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY } from '../support/upstream-config.js';

let upstream: FakeUpstream;
let gateway: TestGateway;
const openai = () => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const mistral = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });

const THREAT = 'I am going to shoot you in the head and burn your house down.';
const HARMLESS = 'What is the capital of France?';

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await startGateway({
    config: {
      providers: [
        { id: 'openai-up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
        { id: 'mistral-up', type: 'mistral', base_url: upstream.url, api_key: UPSTREAM_KEY },
      ],
      models: [
        { id: 'up-moderation', provider: 'openai-up', upstream_model: 'omni-up', capabilities: ['moderation'] },
        {
          id: 'mistral-moderation-latest',
          provider: 'mistral-up',
          upstream_model: 'mistral-moderation-up',
          capabilities: ['moderation', 'classification'],
        },
        { id: 'chat-only', provider: 'openai-up', upstream_model: 'chat-up', capabilities: ['chat'] },
      ],
    },
  });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('moderation and classification through the official SDKs', () => {
  it('openai moderations.create on the built-in local classifier: a threat is flagged for violence, a question is not', async () => {
    const answer = await openai().moderations.create({ model: 'omni-moderation-latest', input: [THREAT, HARMLESS] });
    expect(answer.model).toBe('svc-moderation-local');
    expect(answer.id).toMatch(/^modr-/);
    const [threat, harmless] = answer.results;
    expect(threat.flagged).toBe(true);
    expect(threat.categories.violence).toBe(true);
    expect(threat.category_scores.violence).toBeGreaterThan(0.5);
    expect(threat.category_applied_input_types?.violence).toEqual(['text']);
    expect(harmless.flagged).toBe(false);
    expect(Math.max(...Object.values(harmless.category_scores))).toBeLessThan(0.5);
  });

  it('mistral classifiers.moderate and moderateChat on the local classifier answer in Mistral category names', async () => {
    const texts = await mistral().classifiers.moderate({ model: 'svc-moderation-local', inputs: [THREAT, HARMLESS] });
    expect(texts.results).toHaveLength(2);
    // Named by the gateway's own id: OpenAI's names, which Mistral's client reads all the same.
    expect(texts.results[0].categories?.violence).toBe(true);
    expect(texts.results[1].categories?.violence).toBe(false);
    // Mistral's own chat endpoint: Mistral's names.
    const chat = await mistral().classifiers.moderateChat({
      model: 'svc-moderation-local',
      inputs: [
        { role: 'user', content: 'Hi there' },
        { role: 'assistant', content: THREAT },
      ],
    });
    expect(chat.results).toHaveLength(1);
    expect(chat.results[0].categories?.violence_and_threats).toBe(true);
    expect(chat.results[0].categoryScores?.violence_and_threats).toBeGreaterThan(0.5);
  });

  it('mistral classify and classifyChat on the local classifier: the moderation target, scores summing to 1', async () => {
    const answer = await mistral().classifiers.classify({ model: 'svc-moderation-local', inputs: [THREAT] });
    const scores = answer.results[0].moderation.scores;
    expect(Object.entries(scores).sort((a, b) => b[1] - a[1])[0][0]).toBe('violence');
    expect(Object.values(scores).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 3);
    const chat = await mistral().classifiers.classifyChat({
      model: 'svc-moderation-local',
      input: [{ messages: [{ role: 'user', content: HARMLESS }] }],
    });
    const chatScores = chat.results[0].moderation.scores;
    expect(Object.entries(chatScores).sort((a, b) => b[1] - a[1])[0][0]).toBe('safe');
  });

  it('forwards to upstreams: openai moderations.create and mistral moderate, moderateChat, classify, classifyChat', async () => {
    const forwarded = await openai().moderations.create({ model: 'up-moderation', input: 'this is forbidden' });
    expect(forwarded).toMatchObject({
      model: 'up-moderation',
      results: [{ flagged: true, categories: { violence: true } }],
    });
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/moderations',
      body: { model: 'omni-up', input: ['this is forbidden'] },
    });

    const client = mistral();
    const moderated = await client.classifiers.moderate({
      model: 'mistral-moderation-latest',
      inputs: ['fine', 'forbidden'],
    });
    expect(moderated.results.map((result) => result.categories?.violence)).toEqual([false, true]);
    const chat = await client.classifiers.moderateChat({
      model: 'mistral-moderation-latest',
      inputs: [{ role: 'user', content: 'forbidden words' }],
    });
    // An upstream's answer passes as it came.
    expect(chat.results[0].categoryScores?.violence).toBe(0.97);
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/chat/moderations',
      body: { model: 'mistral-moderation-up', input: [[{ role: 'user', content: 'forbidden words' }]] },
    });
    const classified = await client.classifiers.classify({
      model: 'mistral-moderation-latest',
      inputs: ['a great day'],
    });
    expect(classified.results[0].sentiment.scores).toEqual({ positive: 0.9, negative: 0.1 });
    const classifiedChat = await client.classifiers.classifyChat({
      model: 'mistral-moderation-latest',
      input: [{ messages: [{ role: 'user', content: 'meh' }] }],
    });
    expect(classifiedChat.results[0].sentiment.scores.positive).toBe(0.2);
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/chat/classifications',
      body: { input: [{ messages: [{ role: 'user', content: 'meh' }] }] },
    });
  });

  it('refuses clearly: a chat model (400 capability_not_supported), an image part (422), no input (422)', async () => {
    await expect(openai().moderations.create({ model: 'chat-only', input: 'hello' })).rejects.toMatchObject({
      status: 400,
      code: 'capability_not_supported',
    });
    const image = await gateway.request('/v1/moderations', {
      method: 'POST',
      json: { input: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    });
    expect(image.status).toBe(422);
    expect(await image.json()).toMatchObject({ object: 'error', code: 'unsupported_input', param: 'input' });
    const empty = await gateway.request('/v1/classifications', {
      method: 'POST',
      json: { model: 'svc-moderation-local' },
    });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ object: 'error', param: 'input' });
  });
});
