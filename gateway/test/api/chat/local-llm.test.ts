import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../../support/sse.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';

/** The gateway with the real llama.cpp engine and the generated tiny model placed in <data>/models. */
let gateway: TestGateway;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchyard-llm-'));
  mkdirSync(join(dataDir, 'models'));
  await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-chat.gguf'), { seed: 3 });
  gateway = await startGateway({
    dataDir,
    config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1, idle_unload_ms: 1500 }] },
  });
});
afterAll(async () => {
  await gateway.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: Record<string, unknown>) => gateway.request(path, { method: 'POST', json: body });

async function modelState(id: string): Promise<string> {
  const models = await json(await gateway.request('/models'));
  return models.data.find((model: Json) => model.id === id).state;
}

describe('local llama.cpp through the gateway', () => {
  it('routes the installed GGUF file by name and as the default model', async () => {
    const models = await json(await gateway.request('/models'));
    const ids = models.data.map((model: Json) => model.id);
    expect(ids).toContain('tiny-chat');
    expect(ids).toContain('svc-large-3-2512');
    expect(models.data.find((model: Json) => model.id === 'svc-large-3-2512').capabilities).toEqual([
      'chat',
      'completions',
      'embeddings',
    ]);
  });

  it('chats with real token counts', async () => {
    const response = await post('/v1/chat/completions', {
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 8,
      temperature: 0,
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'svc-large-3-2512',
      choices: [{ message: { role: 'assistant' }, finish_reason: expect.stringMatching(/^(stop|length)$/) }],
    });
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('streams token by token, with usage in the last chunk', async () => {
    const response = await post('/v1/chat/completions', {
      model: 'tiny-chat',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 6,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    const frames = await readSse(response);
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1) as Json[];
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta?.content !== undefined).length).toBeGreaterThan(1);
    expect(chunks.at(-1).usage.completion_tokens).toBeGreaterThan(0);
  });

  it('completes text and embeds', async () => {
    const completion = await json(
      await post('/v1/completions', { model: 'tiny-chat', prompt: 'Once', max_tokens: 5, temperature: 0 }),
    );
    // Greedy (temperature 0), so the tiny model's answer is the same on every run: sampled, it could end early.
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.usage.completion_tokens).toBe(5);
    const embeddings = await json(
      await post('/v1/embeddings', { model: 'tiny-chat', input: ['same', 'same', 'other'] }),
    );
    expect(embeddings.data).toHaveLength(3);
    expect(embeddings.data[0].embedding).toEqual(embeddings.data[1].embedding);
    expect(embeddings.data[0].embedding.length).toBe(64);
  });

  it('constrains output to a JSON schema', async () => {
    const schema = {
      type: 'object',
      properties: { verdict: { type: 'string', enum: ['yes', 'no'] }, sure: { type: 'boolean' } },
      required: ['verdict', 'sure'],
      additionalProperties: false,
    };
    const body = await json(
      await post('/v1/chat/completions', {
        model: 'tiny-chat',
        messages: [{ role: 'user', content: 'Answer' }],
        max_tokens: 200,
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
      }),
    );
    expect(body.choices[0].finish_reason).toBe('stop');
    const parsed = JSON.parse(body.choices[0].message.content);
    expect(['yes', 'no']).toContain(parsed.verdict);
    expect(typeof parsed.sure).toBe('boolean');
  });

  it('makes a forced tool call', async () => {
    const parameters = {
      type: 'object',
      properties: { city: { type: 'string', enum: ['Paris', 'Oslo'] }, days: { type: 'boolean' } },
      required: ['city'],
    };
    const response = await post('/v1/chat/completions', {
      model: 'tiny-chat',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters } }],
      tool_choice: 'required',
      max_tokens: 100,
      temperature: 0,
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { role: 'assistant', content: null },
    });
    const [call] = body.choices[0].message.tool_calls;
    expect(call).toMatchObject({
      id: expect.stringMatching(/^call_/),
      type: 'function',
      function: { name: 'get_weather' },
    });
    expect(JSON.parse(call.function.arguments)).toEqual({
      city: expect.stringMatching(/^(Paris|Oslo)$/),
      days: expect.any(Boolean),
    });
  });

  it('unloads after the idle time and serves the next call from a cold start', async () => {
    await post('/v1/chat/completions', {
      model: 'tiny-chat',
      messages: [{ role: 'user', content: 'warm' }],
      max_tokens: 2,
    });
    expect(await modelState('tiny-chat')).toBe('ready');
    await expect.poll(() => modelState('tiny-chat'), { timeout: 10_000, interval: 250 }).toBe('cold');
    const response = await post('/v1/chat/completions', {
      model: 'tiny-chat',
      messages: [{ role: 'user', content: 'again' }],
      max_tokens: 2,
    });
    expect(response.status).toBe(200);
    expect(await modelState('tiny-chat')).toBe('ready');
  });
});
