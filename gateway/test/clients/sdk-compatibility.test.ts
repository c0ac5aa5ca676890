import { Mistral } from '@mistralai/mistralai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { ADMIN_KEY, startGateway, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await startGateway({ config: upstreamConfig(upstream) });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('the official openai SDK, unchanged', () => {
  const client = () => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

  it('chat, plain', async () => {
    const completion = await client().chat.completions.create({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'plain answer' }],
    });
    expect(completion.choices[0].message.content).toBe('plain answer');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('chat, streamed, with usage', async () => {
    const stream = await client().chat.completions.create({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'streamed answer here' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let completionTokens = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) completionTokens = chunk.usage.completion_tokens;
    }
    expect(text).toBe('streamed answer here');
    expect(completionTokens).toBe(3);
  });

  it('completions and embeddings (base64 by default in the SDK)', async () => {
    const completion = await client().completions.create({ model: 'svc-large-3', prompt: 'say something' });
    expect(completion.choices[0].text.length).toBeGreaterThan(0);
    const embeddings = await client().embeddings.create({ model: 'svc-large-3', input: ['one', 'two'] });
    expect(embeddings.data).toHaveLength(2);
    expect(embeddings.data[0].embedding.length).toBeGreaterThan(0);
    expect(embeddings.data[0].embedding.every((value) => Number.isFinite(value))).toBe(true);
  });

  it('surfaces gateway errors as SDK errors with the status and message', async () => {
    const failure = client().chat.completions.create({
      model: 'missing-model',
      messages: [{ role: 'user', content: 'x' }],
    });
    await expect(failure).rejects.toMatchObject({ status: 404 });
  });
});

describe('the official @mistralai/mistralai SDK, unchanged', () => {
  const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });

  it('chat, plain and streamed', async () => {
    const completion = await client().chat.complete({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'bonjour le monde' }],
    });
    expect(completion.choices?.[0].message?.content).toBe('bonjour le monde');
    const stream = await client().chat.stream({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'flux de mots' }],
    });
    let text = '';
    for await (const event of stream) text += (event.data.choices[0]?.delta.content as string | undefined) ?? '';
    expect(text).toBe('flux de mots');
  });

  it('embeddings with the SDK spelling', async () => {
    const result = await client().embeddings.create({
      model: 'svc-large-3',
      inputs: ['Embed this sentence.', 'As well as this one.'],
    });
    expect(result.data).toHaveLength(2);
    expect(result.data[0].embedding?.length).toBeGreaterThan(0);
  });
});
