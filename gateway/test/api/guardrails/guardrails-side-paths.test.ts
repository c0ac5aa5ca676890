import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage } from '../../support/draw-text.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { everythingStdio } from '../../support/mcp-servers.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';

/**
 * A route's and a key's guardrails on the paths beside chat, completions and FIM: embeddings and
 * image prompts (text sent to a provider), an MCP tool's result flowing back into the model, and a
 * cache hit shared across the account.
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
      providers: [{ id: 'up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY }],
      models: [
        // The default chat model, which writes the answers other features ask for.
        { id: 'svc-large-3-2512', provider: 'up', upstream_model: 'd', capabilities: ['chat'] },
        { id: 'guarded', provider: 'up', upstream_model: 'g', capabilities: ['chat', 'embeddings'], guardrails: RULES },
        { id: 'plain', provider: 'up', upstream_model: 'p', capabilities: ['chat', 'embeddings'] },
        { id: 'painter', provider: 'up', upstream_model: 'paint', capabilities: ['image_generation'] },
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
