import { Mistral } from '@mistralai/mistralai';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage } from '../../support/draw-text.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { everythingStdio } from '../../support/mcp-servers.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';
import { makeWav } from '../../support/wav.js';

/**
 * A route's and a key's guardrails on the paths beside chat, completions and FIM: embeddings, image
 * prompts, moderations, classifications and transcription prompts (text sent to a provider), an MCP
 * tool's result flowing back into the model, and a cache hit shared across the account.
 */
let upstream: FakeUpstream;
let gateway: TestGateway;

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';
const RULES = {
  input: [
    { name: 'no-secrets', type: 'pii', entities: ['secret'], action: 'block' },
    { name: 'personal-data', type: 'pii', entities: ['email'], action: 'redact' },
  ],
};

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY, toolLoop: true });
  gateway = await startGateway({
    config: {
      providers: [
        { id: 'up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY },
        { id: 'mist', type: 'mistral', base_url: upstream.url, api_key: UPSTREAM_KEY },
      ],
      models: [
        // The default chat model, which writes the answers other features ask for.
        { id: 'svc-large-3-2512', provider: 'up', upstream_model: 'd', capabilities: ['chat'] },
        { id: 'guarded', provider: 'up', upstream_model: 'g', capabilities: ['chat', 'embeddings'], guardrails: RULES },
        { id: 'plain', provider: 'up', upstream_model: 'p', capabilities: ['chat', 'embeddings'] },
        { id: 'painter', provider: 'up', upstream_model: 'paint', capabilities: ['image_generation'] },
        {
          id: 'guarded-classifier',
          provider: 'mist',
          upstream_model: 'gc',
          capabilities: ['moderation', 'classification'],
          guardrails: RULES,
        },
        { id: 'classifier', provider: 'mist', upstream_model: 'c', capabilities: ['moderation', 'classification'] },
        { id: 'listener', provider: 'up', upstream_model: 'l', capabilities: ['transcription'], guardrails: RULES },
        // The built-in OCR engine under a guarded route: the chat turns it asks for run its rules.
        { id: 'guarded-ocr', provider: 'local-ocr', capabilities: ['ocr', 'documents'], guardrails: RULES },
        {
          id: 'echo-guarded',
          provider: 'up',
          upstream_model: 'e',
          capabilities: ['chat'],
          guardrails: { input: [{ name: 'tool-echo', type: 'regex', patterns: ['Echo: \\w+'], action: 'redact' }] },
        },
        {
          id: 'shared-cache',
          provider: 'up',
          upstream_model: 's',
          capabilities: ['chat'],
          cache: { mode: 'exact', ttl_s: 600, scope: 'account' },
        },
      ],
      mcp_servers: [{ ...everythingStdio('everything'), allowed_keys: 'all' }],
    },
  });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

async function keyWith(guardrails?: Record<string, unknown>): Promise<string> {
  const created = await gateway.request('/account/keys', {
    method: 'POST',
    json: { name: 'side paths', role: 'member', ...(guardrails ? { guardrails } : {}) },
  });
  expect(created.status).toBe(201);
  return (await json(created)).key;
}

const post = (path: string, body: unknown, key?: string) =>
  gateway.request(path, { method: 'POST', json: body, ...(key ? { key } : {}) });
const sentTo = (path: string) => upstream.requests.filter((request) => request.path === path);
const openai = (key = ADMIN_KEY) => new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const mistral = (key = ADMIN_KEY) => new Mistral({ apiKey: key, serverURL: gateway.url });
const blockedBy = (rule: string) => ({
  status: 400,
  error: expect.objectContaining({ code: 'guardrail_blocked', message: expect.stringContaining(`"${rule}"`) }),
});
/** A Mistral SDK call refused by the guardrail `rule` (its client throws with the raw body). */
async function expectMistralBlocked(call: Promise<unknown>, rule: string) {
  const error = await call.then(
    () => expect.fail('the call was not refused'),
    (thrown: { statusCode?: number; body?: string }) => thrown,
  );
  expect(error.statusCode).toBe(400);
  expect(JSON.parse(error.body ?? '{}')).toMatchObject({
    code: 'guardrail_blocked',
    message: expect.stringContaining(`"${rule}"`),
  });
}

async function expectBlocked(response: Response, rule: string) {
  expect(response.status).toBe(400);
  expect(await json(response)).toMatchObject({
    object: 'error',
    code: 'guardrail_blocked',
    message: expect.stringContaining(`"${rule}"`),
  });
}

describe('guardrails beside the chat path', () => {
  it("embeddings: a route's and a key's input rules block or redact the input before the provider sees it", async () => {
    const before = sentTo('/v1/embeddings').length;
    await expectBlocked(await post('/v1/embeddings', { model: 'guarded', input: `token ${SECRET}` }), 'no-secrets');
    const keyed = await keyWith({
      input: [{ name: 'key-secrets', type: 'pii', entities: ['secret'], action: 'block' }],
    });
    await expectBlocked(await post('/v1/embeddings', { model: 'plain', input: [SECRET] }, keyed), 'key-secrets');
    expect(sentTo('/v1/embeddings')).toHaveLength(before);

    const redacted = await post('/v1/embeddings', { model: 'guarded', input: ['mail me at ann@example.com', 'hi'] });
    expect(redacted.status).toBe(200);
    expect((await json(redacted)).data).toHaveLength(2);
    expect(sentTo('/v1/embeddings').at(-1)!.body).toMatchObject({ input: ['mail me at [REDACTED:email]', 'hi'] });
  });

  it("image generation: a key's input rules block a prompt before the provider sees it", async () => {
    const keyed = await keyWith({
      input: [{ name: 'key-secrets', type: 'pii', entities: ['secret'], action: 'block' }],
    });
    const before = sentTo('/v1/images/generations').length;
    await expectBlocked(
      await post(
        '/v1/images/generations',
        { model: 'painter', prompt: `a poster saying ${SECRET}`, size: '256x256' },
        keyed,
      ),
      'key-secrets',
    );
    expect(sentTo('/v1/images/generations')).toHaveLength(before);
    const fine = await post(
      '/v1/images/generations',
      { model: 'painter', prompt: 'a red square', size: '256x256' },
      keyed,
    );
    expect(fine.status).toBe(200);
  });

  it("classifications: a route's and a key's input rules block or redact the text before the classifier sees it", async () => {
    const before = sentTo('/v1/classifications').length;
    await expectMistralBlocked(
      mistral().classifiers.classify({ model: 'guarded-classifier', inputs: [`token ${SECRET}`] }),
      'no-secrets',
    );
    expect(sentTo('/v1/classifications')).toHaveLength(before);
    const answer = await mistral().classifiers.classify({
      model: 'guarded-classifier',
      inputs: ['great news, write to ann@example.com', 'meh'],
    });
    expect(answer.results).toHaveLength(2);
    expect(sentTo('/v1/classifications').at(-1)!.body).toMatchObject({
      input: ['great news, write to [REDACTED:email]', 'meh'],
    });

    const keyed = await keyWith({
      input: [{ name: 'key-mail', type: 'pii', entities: ['email'], action: 'redact' }],
    });
    const chat = await mistral(keyed).classifiers.classifyChat({
      model: 'classifier',
      input: [
        { messages: [{ role: 'user', content: 'I am bob@example.com' }] },
        {
          messages: [
            { role: 'user', content: 'hello' },
            { role: 'assistant', content: 'ann@example.com here' },
          ],
        },
      ],
    });
    expect(chat.results).toHaveLength(2);
    expect(JSON.stringify(sentTo('/v1/chat/classifications').at(-1)!.body)).not.toContain('@example.com');
    expect(sentTo('/v1/chat/classifications').at(-1)!.body).toMatchObject({
      input: [
        { messages: [{ role: 'user', content: 'I am [REDACTED:email]' }] },
        { messages: [{ content: 'hello' }, { content: '[REDACTED:email] here' }] },
      ],
    });
  });

  it('moderations: the pii and regex rules apply to the moderated text; a moderation rule does not judge it again', async () => {
    const before = sentTo('/v1/moderations').length;
    await expect(
      openai().moderations.create({ model: 'guarded-classifier', input: `forbidden ${SECRET}` }),
    ).rejects.toMatchObject(blockedBy('no-secrets'));
    expect(sentTo('/v1/moderations')).toHaveLength(before);
    await mistral().classifiers.moderateChat({
      model: 'guarded-classifier',
      inputs: [{ role: 'user', content: 'reach me at ann@example.com' }],
    });
    expect(JSON.stringify(sentTo('/v1/chat/moderations').at(-1)!.body)).toContain('reach me at [REDACTED:email]');

    // A key whose moderation rule blocks violence, calling the moderation route its rule uses: the
    // verdict is the answer (one upstream call, no rule judging the judgement, no recursion).
    const keyed = await keyWith({
      input: [{ name: 'no-violence', type: 'moderation', model: 'classifier', action: 'block' }],
    });
    const moderations = sentTo('/v1/moderations').length;
    const verdict = await openai(keyed).moderations.create({ model: 'classifier', input: 'forbidden words' });
    expect(verdict.results[0]).toMatchObject({ flagged: true, categories: { violence: true } });
    expect(sentTo('/v1/moderations')).toHaveLength(moderations + 1);
    // A classification is a model call like any: the same key's moderation rule judges its text first.
    const classifications = sentTo('/v1/classifications').length;
    await expectMistralBlocked(
      mistral(keyed).classifiers.classify({ model: 'classifier', inputs: ['forbidden words'] }),
      'no-violence',
    );
    expect(sentTo('/v1/classifications')).toHaveLength(classifications);
  });

  it("transcription: the prompt passes the route's input rules before the provider sees it", async () => {
    const file = () => toFile(makeWav(1), 'clip.wav', { type: 'audio/wav' });
    const before = sentTo('/v1/audio/transcriptions').length;
    await expect(
      openai().audio.transcriptions.create({ model: 'listener', file: await file(), prompt: `Terms: ${SECRET}` }),
    ).rejects.toMatchObject(blockedBy('no-secrets'));
    expect(sentTo('/v1/audio/transcriptions')).toHaveLength(before);
    const transcript = await openai().audio.transcriptions.create({
      model: 'listener',
      file: await file(),
      prompt: 'Speaker: ann@example.com',
    });
    expect(transcript.text.length).toBeGreaterThan(0);
    expect(sentTo('/v1/audio/transcriptions').at(-1)!.body).toMatchObject({
      fields: { prompt: 'Speaker: [REDACTED:email]' },
    });
  });

  it('a document question sent to a guarded chat model is answered by it, under its rules', async () => {
    const page = await drawTextImage([{ text: 'Invoice total 42 euros', x: 20, y: 60, size: 32 }], {
      width: 480,
      height: 100,
    });
    const ask = (question: string) =>
      post('/v1/chat/completions', {
        model: 'guarded',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: question },
              { type: 'document_url', document_url: `data:image/png;base64,${page.image.toString('base64')}` },
            ],
          },
        ],
      });
    const before = sentTo('/v1/chat/completions').length;
    await expectBlocked(await ask(`What is the total? My key is ${SECRET}`), 'no-secrets');
    expect(sentTo('/v1/chat/completions')).toHaveLength(before);
    const answered = await ask('What is the total? Mail it to ann@example.com');
    expect(answered.status).toBe(200);
    const sent = sentTo('/v1/chat/completions').at(-1)!.body as Json;
    expect(sent.model).toBe('g');
    expect(JSON.stringify(sent.messages)).toContain('[REDACTED:email]');
  });

  it("OCR and documents: the named route's rules run on the chat turns it asks another model for", async () => {
    const page = await drawTextImage([{ text: 'Invoice total 42 euros', x: 20, y: 60, size: 32 }], {
      width: 480,
      height: 100,
    });
    const image = `data:image/png;base64,${page.image.toString('base64')}`;
    const ask = (question: string) =>
      post('/v1/chat/completions', {
        model: 'guarded-ocr',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: question },
              { type: 'document_url', document_url: image },
            ],
          },
        ],
      });
    const before = sentTo('/v1/chat/completions').length;
    await expectBlocked(await ask(`What is the total? My key is ${SECRET}`), 'no-secrets');
    await expectBlocked(
      await post('/v1/ocr', {
        model: 'guarded-ocr',
        document: { type: 'image_url', image_url: image },
        document_annotation_format: {
          type: 'json_schema',
          json_schema: {
            name: 'invoice',
            schema: { type: 'object', properties: { total: { type: 'number', description: `sum; ${SECRET}` } } },
          },
        },
      }),
      'no-secrets',
    );
    expect(sentTo('/v1/chat/completions')).toHaveLength(before);

    expect((await ask('What is the total? Mail it to ann@example.com')).status).toBe(200);
    const sent = sentTo('/v1/chat/completions').at(-1)!.body as Json;
    expect(sent.model).toBe('d');
    expect(JSON.stringify(sent.messages)).toContain('Mail it to [REDACTED:email]');
  });

  it("an MCP tool's result passes the input rules before the model reads it", async () => {
    const response = await post('/v1/responses', {
      model: 'echo-guarded',
      input: 'please echo {"message": "classified"}',
      tools: [{ type: 'mcp', server_label: 'everything', require_approval: 'never', allowed_tools: ['echo'] }],
    });
    expect(response.status).toBe(200);
    const body: Json = await json(response);
    expect(body.output.find((item: Json) => item.type === 'mcp_call')).toMatchObject({ output: 'Echo: classified' });
    const second = sentTo('/v1/chat/completions').at(-1)!.body as Json;
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: '[REDACTED:tool-echo]' });
    expect(JSON.stringify(second)).not.toContain('Echo: classified');
  });

  it("a cache hit shared across the account passes the asking key's output rules", async () => {
    const ask = {
      model: 'shared-cache',
      temperature: 0,
      messages: [{ role: 'user', content: 'write to bob@example.com' }],
    };
    const first = await post('/v1/chat/completions', ask, await keyWith());
    expect(first.headers.get('x-switchyard-cache')).toBe('miss');
    expect((await json(first)).choices[0].message.content).toContain('bob@example.com');
    const strict = await keyWith({
      output: [{ name: 'answer-pii', type: 'pii', entities: ['email'], action: 'redact' }],
    });
    const hit = await post('/v1/chat/completions', ask, strict);
    expect(hit.headers.get('x-switchyard-cache')).toBe('hit');
    expect((await json(hit)).choices[0].message.content).toBe('write to [REDACTED:email]');
  });
});
