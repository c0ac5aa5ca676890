import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { readSse } from '../../support/sse.js';
import { ADMIN_KEY, json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

let upstream: FakeUpstream;
let backup: FakeUpstream;
let gateway: TestGateway;

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  backup = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await useGateway({ config: upstreamConfig(upstream, { fallbackUpstream: backup }) });
});

const chat = (body: Record<string, unknown>, init: { key?: string | null; signal?: AbortSignal; path?: string } = {}) =>
  gateway.request(init.path ?? '/v1/chat/completions', {
    method: 'POST',
    json: body,
    key: init.key,
    signal: init.signal,
  });

describe('chat completions through an OpenAI-compatible upstream', () => {
  it('answers in the SPEC shape, sends the upstream model name and the provider key, never the client key', async () => {
    const response = await chat({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'hello there' }],
      temperature: 0.2,
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'svc-large-3-2512',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello there' }, finish_reason: 'stop' }],
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.created).toBeTypeOf('number');
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    const sent = upstream.requests.at(-1)!;
    expect((sent.body as Json).model).toBe('my-model');
    expect((sent.body as Json).temperature).toBe(0.2);
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(JSON.stringify(sent.headers)).not.toContain(ADMIN_KEY);
  });

  it('uses svc-large-3-2512 when model is omitted, on /chat/completions too', async () => {
    const response = await chat({ messages: [{ role: 'user', content: 'hi' }] }, { path: '/chat/completions' });
    expect(response.status).toBe(200);
    expect((await json(response)).model).toBe('svc-large-3-2512');
  });

  it('validates temperature, messages and the model', async () => {
    const hot = await chat({ messages: [{ role: 'user', content: 'x' }], temperature: 2.5 });
    expect(hot.status).toBe(422);
    expect(await json(hot)).toMatchObject({ object: 'error', param: 'temperature' });
    const noMessages = await chat({ model: 'svc-large-3' });
    expect(noMessages.status).toBe(422);
    expect((await json(noMessages)).param).toBe('messages');
    const unknown = await chat({ model: 'nope-1', messages: [{ role: 'user', content: 'x' }] });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((await json(await chat({ model: 'nope-1', messages: [{ role: 'user', content: 'x' }] }))).message).toMatch(
      /config file/,
    );
  });

  it('passes OpenAI and Mistral parameters through: stop, seed/random_seed, top_p, n, response_format, tools', async () => {
    const response = await chat({
      messages: [
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'call lookup please' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
      stop: 'END',
      random_seed: 7,
      top_p: 0.9,
      response_format: { type: 'json_object' },
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', parameters: { type: 'object', properties: { input: { type: 'string' } } } },
        },
      ],
      tool_choice: 'any',
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls[0].function.name).toBe('lookup');
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent).toMatchObject({
      stop: ['END'],
      seed: 7,
      top_p: 0.9,
      response_format: { type: 'json_object' },
      tool_choice: 'required',
    });
    expect(sent.messages[1].content[1].image_url.url).toBe('data:image/png;base64,AAAA');
  });

  it('records tokens and cost in the ledger at the model price and in X-Request-Cost', async () => {
    const response = await chat({ messages: [{ role: 'user', content: 'one two three four' }] });
    const body = await json(response);
    const expected = (body.usage.prompt_tokens * 2 + body.usage.completion_tokens * 6) / 1e6;
    expect(Number(response.headers.get('x-request-cost'))).toBeCloseTo(expected, 10);
    const usage = await json(
      await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': ADMIN_KEY } }),
    );
    const byModel = usage.usage.by_model.find((entry: Json) => entry.key === 'svc-large-3-2512');
    expect(byModel).toMatchObject({
      requests: 1,
      prompt_tokens: body.usage.prompt_tokens,
      completion_tokens: body.usage.completion_tokens,
    });
    expect(usage.usage.total_cost).toBeCloseTo(expected, 10);
    const me = await json(await gateway.request('/account/me'));
    expect(me.balance.amount).toBeCloseTo(100 - expected, 6);
  });
});

describe('streaming', () => {
  it('streams chat.completion.chunk frames, finish_reason null until the last, usage when asked, then [DONE]', async () => {
    const response = await chat({
      messages: [{ role: 'user', content: 'alpha beta gamma' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const frames = await readSse(response);
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1) as Json[];
    for (const chunk of chunks)
      expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: 'svc-large-3-2512', id: chunks[0].id });
    const withChoices = chunks.filter((chunk) => chunk.choices.length > 0);
    expect(withChoices.slice(0, -1).every((chunk) => chunk.choices[0].finish_reason === null)).toBe(true);
    expect(withChoices.at(-1).choices[0].finish_reason).toBe('stop');
    expect(withChoices.map((chunk) => chunk.choices[0].delta.content ?? '').join('')).toBe('alpha beta gamma');
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: 3 });
  });

  it('every chunk carries delta.content, the first (role) and the last (finish_reason) included, as Mistral sends them', async () => {
    const frames = await readSse(
      await chat({ messages: [{ role: 'user', content: 'alpha beta gamma' }], stream: true }),
    );
    const chunks = (frames.slice(0, -1) as Json[]).filter((chunk) => chunk.choices.length > 0);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const chunk of chunks) expect(chunk.choices[0].delta.content).toBeTypeOf('string');
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-1).choices[0]).toEqual({ index: 0, delta: { content: '' }, finish_reason: 'stop' });
  });

  it('a streamed tool call: every chunk carries delta.content (empty beside the whole call), finish_reason null until tool_calls', async () => {
    const tools = [
      {
        type: 'function',
        function: { name: 'lookup', parameters: { type: 'object', properties: { input: { type: 'string' } } } },
      },
    ];
    const frames = await readSse(
      await chat({ messages: [{ role: 'user', content: 'call lookup please' }], tools, stream: true }),
    );
    const chunks = (frames.slice(0, -1) as Json[]).filter((chunk) => chunk.choices.length > 0);
    for (const chunk of chunks) expect(chunk.choices[0].delta.content).toBeTypeOf('string');
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0].finish_reason === null)).toBe(true);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
    const call = chunks.find((chunk) => chunk.choices[0].delta.tool_calls)!.choices[0].delta;
    expect(call).toMatchObject({
      content: '',
      tool_calls: [
        {
          index: 0,
          type: 'function',
          function: { name: 'lookup', arguments: JSON.stringify({ input: 'call lookup please' }) },
        },
      ],
    });
  });

  it('sends an error frame before [DONE] when the upstream fails mid-stream, never a silent close', async () => {
    upstream.setBehaviour({ failure: { type: 'cut_mid_stream', afterFrames: 2 }, path: '/v1/chat/completions' });
    const response = await chat({ messages: [{ role: 'user', content: 'a b c d e f' }], stream: true });
    expect(response.status).toBe(200);
    const frames = await readSse(response);
    expect(frames.at(-1)).toBe('[DONE]');
    expect(frames.at(-2)).toMatchObject({ object: 'error', type: 'upstream_error' });
  });

  it('aborts the upstream request when the client disconnects', async () => {
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 200 }, path: '/v1/chat/completions' });
    const controller = new AbortController();
    const response = await chat(
      { messages: [{ role: 'user', content: 'one two three four five six seven eight' }], stream: true },
      { signal: controller.signal },
    );
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const sent = upstream.requests.at(-1)!;
    await sent.settled;
    expect(sent.aborted).toBe(true);
  });
});

describe('failures, retries and fallbacks', () => {
  it('retries a 500 before the first byte and succeeds', async () => {
    upstream.setBehaviour({ failure: { type: 'status', status: 500 }, times: 1 });
    const response = await chat({ messages: [{ role: 'user', content: 'retry me' }] });
    expect(response.status).toBe(200);
    expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);
  });

  it('maps a persistent upstream 500 to 502, a 429 to 429 with Retry-After, a hang to 504', async () => {
    upstream.setBehaviour({ failure: { type: 'status', status: 500 } });
    const failed = await chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(failed.status).toBe(502);
    expect(failed.headers.get('retry-after')).toBeTruthy();
    expect(await json(failed)).toMatchObject({ object: 'error', type: 'upstream_error' });
    expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(3);

    upstream.setBehaviour({ failure: { type: 'status', status: 429, headers: { 'retry-after': '30' } } });
    const limited = await chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');

    upstream.setBehaviour({ failure: { type: 'hang_before_headers' } });
    const hung = await chat({ model: 'primary-model', messages: [{ role: 'user', content: 'x' }] });
    expect(hung.status).toBe(200);
    expect((await json(hung)).model).toBe('backup-model');
  });

  it('504 with Retry-After when the upstream never answers and there is no fallback', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_before_headers' } });
    const response = await chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(504);
    expect(response.headers.get('retry-after')).toBeTruthy();
    expect((await json(response)).code).toBe('upstream_timeout');
  });

  it('falls back to the next route when the first fails before its first byte', async () => {
    upstream.setBehaviour({ failure: { type: 'status', status: 503 } });
    const response = await chat({
      model: 'primary-model',
      messages: [{ role: 'user', content: 'fallback please' }],
      stream: true,
    });
    expect(response.status).toBe(200);
    const frames = (await readSse(response)) as Json[];
    expect(frames[0].model).toBe('backup-model');
    expect((backup.requests.at(-1)!.body as Json).model).toBe('backup');
  });

  it('502 that names the config key when the upstream refuses the provider key', async () => {
    upstream.setBehaviour({ failure: { type: 'status', status: 401 } });
    const response = await chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.status).toBe(502);
    expect((await json(response)).message).toMatch(/api_key/);
  });
});

describe('completions and embeddings', () => {
  it('completes a prompt and an array of prompts', async () => {
    const single = await json(
      await gateway.request('/v1/completions', { method: 'POST', json: { prompt: 'once upon', max_tokens: 10 } }),
    );
    expect(single).toMatchObject({
      object: 'text_completion',
      model: 'svc-large-3-2512',
      choices: [{ index: 0, text: expect.any(String), finish_reason: expect.any(String) }],
    });
    const many = await json(
      await gateway.request('/v1/completions', { method: 'POST', json: { prompt: ['first', 'second'] } }),
    );
    expect(many.choices.map((choice: Json) => choice.index)).toEqual([0, 1]);
    expect(many.usage.prompt_tokens).toBeGreaterThanOrEqual(2);
  });

  it("passes OpenAI's completions suffix to the upstream, plain and streamed, instead of dropping it", async () => {
    const plain = await gateway.request('/v1/completions', {
      method: 'POST',
      json: { prompt: 'def f(', suffix: '  return x' },
    });
    expect(plain.status).toBe(200);
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/completions',
      body: { prompt: 'def f(', suffix: '  return x' },
    });
    await readSse(
      await gateway.request('/v1/completions', {
        method: 'POST',
        json: { prompt: 'def g(', suffix: 'pass', stream: true },
      }),
    );
    expect(upstream.requests.at(-1)?.body).toMatchObject({ prompt: 'def g(', suffix: 'pass', stream: true });
  });

  it('streams completions as text_completion chunks ending with [DONE]', async () => {
    const response = await gateway.request('/v1/completions', {
      method: 'POST',
      json: { prompt: 'red green blue', stream: true },
    });
    const frames = await readSse(response);
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1) as Json[];
    expect(chunks.every((chunk) => chunk.object === 'text_completion')).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0].text).join('')).toContain('red');
  });

  it('embeds a string or an array, as floats or base64', async () => {
    const one = await json(await gateway.request('/v1/embeddings', { method: 'POST', json: { input: 'hello' } }));
    expect(one).toMatchObject({
      object: 'list',
      model: 'svc-large-3-2512',
      data: [{ object: 'embedding', index: 0 }],
      usage: { prompt_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
    expect(one.data[0].embedding.length).toBeGreaterThan(0);
    const encoded = await json(
      await gateway.request('/v1/embeddings', {
        method: 'POST',
        json: { input: ['hello', 'world'], encoding_format: 'base64' },
      }),
    );
    const decoded = new Float32Array(new Uint8Array(Buffer.from(encoded.data[0].embedding, 'base64')).buffer);
    expect(Array.from(decoded)).toEqual(one.data[0].embedding.map((value: number) => Math.fround(value)));
    const empty = await gateway.request('/v1/embeddings', { method: 'POST', json: { model: 'svc-large-3' } });
    expect(empty.status).toBe(422);
    expect((await json(empty)).param).toBe('input');
  });

  it('400 when a model lacks the capability, naming models that have it', async () => {
    const response = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { model: 'svc-ocr-3-2512', input: 'x' },
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ code: 'capability_not_supported', param: 'model' });
    expect(
      (
        await json(
          await gateway.request('/v1/embeddings', { method: 'POST', json: { model: 'svc-ocr-3-2512', input: 'x' } }),
        )
      ).message,
    ).toMatch(/svc-large-3-2512/);
  });
});
