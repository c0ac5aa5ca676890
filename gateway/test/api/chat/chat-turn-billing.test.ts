import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage, makeTextPdf, type DrawnImage } from '../../support/draw-text.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';
import { scriptedChatAnswer } from '../../support/scripted-chat-answer.js';

/** The chat turns that OCR, documents and vision ask for are billed once, at the chat route's prices (issue 33 item 2). */
let upstream: FakeUpstream;
let gateway: TestGateway;
let page: DrawnImage;

const USAGE = { prompt_tokens: 40, completion_tokens: 9 };
const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
const chatAnswer = (content: string) => scriptedChatAnswer(content, { usage: USAGE });

async function modelUsage(model: string): Promise<Json> {
  const usage = await json(await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': ADMIN_KEY } }));
  return (
    usage.usage.by_model.find((entry: Json) => entry.key === model) ?? {
      requests: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost: 0,
    }
  );
}

/** The request is billed the one chat turn's tokens on `model`, at `prices` per million, nothing more or less. */
async function expectBilledOnce(
  model: string,
  prices: { input: number; output: number },
  send: () => Promise<Response>,
): Promise<Json> {
  const before = await modelUsage(model);
  const response = await send();
  const body = await json(response);
  expect(response.status).toBe(200);
  const cost = (USAGE.prompt_tokens * prices.input + USAGE.completion_tokens * prices.output) / 1e6;
  expect(Number(response.headers.get('x-request-cost'))).toBeCloseTo(cost, 10);
  const after = await modelUsage(model);
  expect(after.requests - before.requests).toBe(1);
  expect(after.prompt_tokens - before.prompt_tokens).toBe(USAGE.prompt_tokens);
  expect(after.completion_tokens - before.completion_tokens).toBe(USAGE.completion_tokens);
  expect(after.cost - before.cost).toBeCloseTo(cost, 8);
  return body;
}

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await startGateway({
    config: {
      providers: [{ id: 'upstream', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY }],
      models: [
        {
          id: 'svc-large-3-2512',
          provider: 'upstream',
          upstream_model: 'writer',
          capabilities: ['chat'],
          pricing: { input_per_million: 2, output_per_million: 6 },
        },
        {
          id: 'pixtral',
          provider: 'upstream',
          upstream_model: 'seer',
          capabilities: ['vision'],
          pricing: { input_per_million: 3, output_per_million: 5 },
        },
      ],
    },
  });
  page = await drawTextImage([{ text: 'Meeting moved to Thursday', x: 30, y: 60, size: 28 }], {
    width: 480,
    height: 100,
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('a chat turn asked for by another feature', () => {
  it('a document answer written by the chat route is billed once on it', async () => {
    const made = await makeTextPdf([
      { lines: [{ text: 'Refunds are issued within 30 days of purchase.', x: 72, y: 100, size: 14 }] },
    ]);
    upstream.setBehaviour(chatAnswer('Refunds are issued within 30 days [1].'));
    const body = await expectBilledOnce('svc-large-3-2512', { input: 2, output: 6 }, () =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: {
          model: 'svc-ocr-3-2512',
          document: dataUrl(made.pdf, 'application/pdf'),
          question: 'When are refunds issued?',
        },
      }),
    );
    expect(body).toMatchObject({ answer_method: 'language_model', usage: { total_tokens: 49 } });
  });

  it('local image facts explained by the chat route are billed once on it', async () => {
    upstream.setBehaviour(chatAnswer('The meeting moved to Thursday.'));
    const body = await expectBilledOnce('svc-large-3-2512', { input: 2, output: 6 }, () =>
      gateway.request('/v1/vision/analyze', {
        method: 'POST',
        json: { image: dataUrl(page.image), prompt: 'What changed?' },
      }),
    );
    expect(body).toMatchObject({ method: 'local_with_chat' });
  });

  it('an image seen by a vision-language route is billed once on it', async () => {
    upstream.setBehaviour(chatAnswer('A note about a meeting.'));
    const body = await expectBilledOnce('pixtral', { input: 3, output: 5 }, () =>
      gateway.request('/v1/vision/analyze', {
        method: 'POST',
        json: { model: 'pixtral', image: dataUrl(page.image), prompt: 'Describe it' },
      }),
    );
    expect(body).toMatchObject({ method: 'vision_model', analysis: 'A note about a meeting.' });
  });
});

/** A new Member key with a spending limit on `on`, and a POST made with it. */
async function postAsLimitedKey(on: TestGateway, spendLimit: number) {
  const key = await json(
    await on.request('/account/keys', {
      method: 'POST',
      json: { role: 'member', name: 'limited', spend_limit: spendLimit },
    }),
  );
  return (path: string, body: Record<string, unknown>) =>
    on.request(path, { method: 'POST', key: key.key, json: body });
}

describe('the chat path holds a spent budget', () => {
  it('refuses chat, agent completions and conversation turns with 402 before any reaches the provider', async () => {
    const own = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const priced = await useGateway({
      config: {
        providers: [{ id: 'upstream', type: 'openai', base_url: own.url, api_key: UPSTREAM_KEY }],
        models: [
          {
            id: 'by-output',
            provider: 'upstream',
            capabilities: ['chat'],
            pricing: { input_per_million: 0, output_per_million: 100_000 },
          },
        ],
      },
    });
    const agent = await json(
      await priced.request('/v1/agents', { method: 'POST', json: { name: 'helper', model: 'by-output' } }),
    );
    const post = await postAsLimitedKey(priced, 0.2);
    const messages = [{ role: 'user', content: 'one two' }];
    // Two completion tokens at 0.1 each: the whole limit.
    expect((await post('/v1/chat/completions', { model: 'by-output', max_tokens: 2, messages })).status).toBe(200);
    const sent = own.requests.length;
    const refused = [
      await post('/v1/chat/completions', { model: 'by-output', max_tokens: 2, messages }),
      await post('/v1/chat/completions', { model: 'by-output', max_tokens: 2, messages, stream: true }),
      await post('/v1/agents/completions', { agent_id: agent.id, messages }),
      await post('/v1/conversations', { model: 'by-output', inputs: 'one two' }),
      await post('/v1/conversations', { agent_id: agent.id, inputs: 'one two', stream: true }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(402);
      expect(await json(response)).toMatchObject({ type: 'insufficient_quota', code: 'key_limit_reached' });
    }
    expect(own.requests).toHaveLength(sent);
  });

  it('holds agent completions, conversation turns and Responses to the estimate of the turn their model runs', async () => {
    const own = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const byOutput = { input_per_million: 0, output_per_million: 1_000 };
    const priced = await useGateway({
      config: {
        providers: [
          { id: 'upstream', type: 'openai', base_url: own.url, api_key: UPSTREAM_KEY },
          { id: 'native', type: 'openai', base_url: own.url, api_key: UPSTREAM_KEY, responses_api: true },
        ],
        models: [
          { id: 'by-output', provider: 'upstream', capabilities: ['chat'], pricing: byOutput },
          { id: 'native-by-output', provider: 'native', capabilities: ['chat'], pricing: byOutput },
        ],
      },
    });
    const post = await postAsLimitedKey(priced, 0.01);
    const agent = await json(await post('/v1/agents', { name: 'helper', model: 'by-output' }));
    const messages = [{ role: 'user', content: 'one two' }];
    // One completion token at 0.001 fits the limit.
    const started = await post('/v1/conversations', {
      model: 'by-output',
      inputs: 'one two',
      completion_args: { max_tokens: 1 },
    });
    expect(started.status).toBe(200);
    const conversation = await json(started);
    const sent = own.requests.length;
    // Without max_tokens a turn may write server.default_completion_tokens (1,024) tokens, 1.024: far past what is left.
    const refused = [
      await post('/v1/agents/completions', { agent_id: agent.id, messages }),
      await post('/v1/agents/completions', { agent_id: agent.id, messages, stream: true }),
      await post('/v1/conversations', { model: 'by-output', inputs: 'one two' }),
      await post('/v1/conversations', { agent_id: agent.id, inputs: 'one two', stream: true }),
      await post(`/v1/conversations/${conversation.conversation_id}`, { inputs: 'three' }),
      await post(`/v1/conversations/${conversation.conversation_id}/restart`, {
        inputs: 'three',
        from_entry_id: conversation.outputs[0].id,
      }),
      await post('/v1/responses', { model: 'by-output', input: 'one two' }),
      await post('/v1/responses', { model: 'by-output', input: 'one two', stream: true }),
      await post('/v1/responses', { model: 'native-by-output', input: 'one two' }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(402);
      const error = await json(response);
      expect(error).toMatchObject({ type: 'insufficient_quota', code: 'key_limit_reached' });
      expect(error.message).toMatch(/may cost up to/);
    }
    expect(own.requests).toHaveLength(sent);
  });
});
