import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleProvider } from '../../../src/providers/openai-compatible/create-openai-compatible-provider.js';
import type { CompletionStreamEvent } from '../../../src/providers/contracts/completions.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import { fakeEmbedding } from '../../support/fake-upstream-replies.js';
import { startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from '../../support/fake-upstream.js';
import { collect } from '../../support/collect.js';
import { AddressPolicy } from '../../../src/core/url-fetch/address-policy.js';
import { upstreamFileFetcher } from '../../../src/core/url-fetch/fetch-upstream-file.js';

const KEY = 'sk-provider-key';
let upstream: FakeUpstream;
let provider: ProviderInstance;
const signal = new AbortController().signal;

async function setUp(options: FakeUpstreamOptions = {}): Promise<void> {
  upstream = await startFakeUpstream({ apiKey: KEY, ...options });
  provider = createOpenAiCompatibleProvider({
    id: 'up',
    options: { type: 'openai', base_url: upstream.url, api_key: KEY },
    dataDir: '/nonexistent',
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    fetchUpstreamFile: upstreamFileFetcher(new AddressPolicy([])),
  });
}

beforeEach(() => setUp());
afterEach(async () => {
  await provider.close();
  await upstream.close();
});

const chat = () => provider.capabilities.chat!;

describe('openai-compatible chat', () => {
  it('sends the upstream model name and the provider key only, and maps the answer', async () => {
    const result = await chat().chat({
      model: 'my-model',
      messages: [{ role: 'user', content: 'Hello there friend' }],
      max_tokens: 50,
      temperature: 0.2,
      seed: 7,
      signal,
    });
    expect(result.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Hello there friend' }, finish_reason: 'stop' },
    ]);
    expect(result.usage).toEqual({ prompt_tokens: 4, completion_tokens: 3 });

    const [sent] = upstream.requests;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(Object.keys(sent.headers).sort()).toEqual([
      'accept',
      'authorization',
      'connection',
      'content-length',
      'content-type',
      'host',
      'user-agent',
    ]);
    expect(sent.body).toEqual({
      model: 'my-model',
      messages: [{ role: 'user', content: 'Hello there friend' }],
      max_tokens: 50,
      temperature: 0.2,
      seed: 7,
      stream: false,
    });
  });

  it('reports finish_reason length when max_tokens cuts the answer', async () => {
    const result = await chat().chat({
      model: 'm',
      messages: [{ role: 'user', content: 'one two three four' }],
      max_tokens: 2,
      signal,
    });
    expect(result.choices[0]).toMatchObject({ message: { content: 'one two ' }, finish_reason: 'length' });
  });

  it('streams deltas, a finish and the upstream usage, asking for include_usage', async () => {
    const events = await collect(
      await chat().chatStream({ model: 'm', messages: [{ role: 'user', content: 'alpha beta gamma' }], signal }),
    );
    expect(upstream.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const text = events.map((event) => (event.type === 'delta' ? (event.content ?? '') : '')).join('');
    expect(text).toBe('alpha beta gamma');
    expect(events[0]).toEqual({ type: 'delta', index: 0, role: 'assistant' });
    expect(events.slice(-2)).toEqual([
      { type: 'finish', index: 0, finish_reason: 'stop' },
      { type: 'usage', usage: { prompt_tokens: 4, completion_tokens: 3 } },
    ]);
  });

  it('counts usage approximately when the upstream reports none', async () => {
    await provider.close();
    await upstream.close();
    await setUp({ usage: false });
    const result = await chat().chat({
      model: 'm',
      messages: [{ role: 'user', content: 'a fairly long sentence to count' }],
      signal,
    });
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
    expect(result.usage.completion_tokens).toBeGreaterThan(0);
    const events = await collect(
      await chat().chatStream({ model: 'm', messages: [{ role: 'user', content: 'stream me too' }], signal }),
    );
    const usage = events.at(-1);
    expect(usage?.type).toBe('usage');
    expect(usage?.type === 'usage' && usage.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('returns tool calls, plain and streamed as deltas', async () => {
    const request = {
      model: 'm',
      messages: [{ role: 'user' as const, content: 'please call get_weather for Paris' }],
      tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }],
      signal,
    };
    const plain = await chat().chat(request);
    expect(plain.choices[0].finish_reason).toBe('tool_calls');
    expect(plain.choices[0].message.content).toBeNull();
    const [call] = plain.choices[0].message.tool_calls!;
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ input: 'please call get_weather for Paris' });

    const events = await collect(await chat().chatStream(request));
    const deltas = events.flatMap((event) => (event.type === 'delta' ? (event.tool_calls ?? []) : []));
    expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(deltas[0].id).toMatch(/^call_/);
    expect(JSON.parse(deltas.map((delta) => delta.function?.arguments ?? '').join(''))).toEqual({
      input: 'please call get_weather for Paris',
    });
    expect(events).toContainEqual({ type: 'finish', index: 0, finish_reason: 'tool_calls' });
  });

  it('maps tool_choice "any" to "required" and passes several choices through', async () => {
    const result = await chat().chat({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'lookup' } }],
      tool_choice: 'any',
      n: 2,
      signal,
    });
    expect(upstream.requests[0].body).toMatchObject({ tool_choice: 'required', n: 2 });
    expect(result.choices.map((choice) => choice.index)).toEqual([0, 1]);
  });
});

describe('openai-compatible completions', () => {
  it('completes plainly and streamed against /completions', async () => {
    const completions = provider.capabilities.completions!;
    const result = await completions.complete({ model: 'm', prompt: 'once upon a time', signal });
    expect(result).toEqual({
      choices: [{ index: 0, text: 'once upon a time', finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 4 },
    });
    expect(upstream.requests[0]).toMatchObject({
      path: '/v1/completions',
      body: { model: 'm', prompt: 'once upon a time', stream: false },
    });

    const events: CompletionStreamEvent[] = await collect(
      await completions.completeStream({ model: 'm', prompt: 'the end', max_tokens: 1, signal }),
    );
    expect(events).toEqual([
      { type: 'delta', index: 0, text: 'the ' },
      { type: 'finish', index: 0, finish_reason: 'length' },
      { type: 'usage', usage: { prompt_tokens: 2, completion_tokens: 1 } },
    ]);
  });
});

describe('openai-compatible embeddings', () => {
  it('reads float answers in input order', async () => {
    const result = await provider.capabilities.embeddings!.embed({
      model: 'emb',
      input: ['first text', 'second'],
      dimensions: 4,
      signal,
    });
    expect(upstream.requests[0].body).toEqual({
      model: 'emb',
      input: ['first text', 'second'],
      encoding_format: 'float',
      dimensions: 4,
    });
    expect(result.prompt_tokens).toBe(3);
    expect(result.vectors).toEqual([fakeEmbedding('first text', 4), fakeEmbedding('second', 4)]);
  });

  it('reads base64 answers too', async () => {
    const base64Upstream = await startFakeUpstream();
    const base64Provider = createOpenAiCompatibleProvider({
      id: 'b64',
      // The dialect asks for floats; a server that answers base64 anyway must still be read.
      options: { type: 'openai', base_url: base64Upstream.url },
      dataDir: '/nonexistent',
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    try {
      const vectors = fakeEmbedding('x', 8);
      // A canned answer: servers such as llama.cpp answer base64 even when floats were asked for.
      base64Upstream.setBehaviour({
        failure: {
          type: 'status',
          status: 200,
          body: {
            object: 'list',
            model: 'e',
            data: [
              {
                object: 'embedding',
                index: 0,
                embedding: Buffer.from(new Float32Array(vectors).buffer).toString('base64'),
              },
            ],
            usage: { prompt_tokens: 1, total_tokens: 1 },
          },
        },
      });
      const result = await base64Provider.capabilities.embeddings!.embed({ model: 'e', input: ['x'], signal });
      expect(result.vectors).toEqual([vectors]);
      expect(base64Upstream.requests[0].headers.authorization).toBeUndefined();
    } finally {
      await base64Provider.close();
      await base64Upstream.close();
    }
  });
});

describe('openai-compatible image generation', () => {
  it('asks for b64_json and returns PNG bytes of the requested size', async () => {
    const images = await provider.capabilities.image_generation!.generate({
      model: 'img',
      prompt: 'a red square',
      size: '64x32',
      n: 2,
      signal,
    });
    expect(upstream.requests[0].body).toEqual({
      model: 'img',
      prompt: 'a red square',
      n: 2,
      size: '64x32',
      response_format: 'b64_json',
    });
    expect(images).toHaveLength(2);
    const meta = await sharp(images[0].data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 32]);
    expect(images[0]).toMatchObject({ mimeType: 'image/png', revised_prompt: 'a red square' });
  });

  it('fetches the image when the upstream answers with a url, without sending the key there', async () => {
    await provider.close();
    await upstream.close();
    await setUp({ images: 'url' });
    const [image] = await provider.capabilities.image_generation!.generate({
      model: 'img',
      prompt: 'p',
      size: '16x16',
      n: 1,
      signal,
    });
    expect((await sharp(image.data).metadata()).width).toBe(16);
    const fetched = upstream.requests[1];
    expect(fetched.method).toBe('GET');
    expect(fetched.path).toMatch(/^\/files\//);
    expect(fetched.headers.authorization).toBeUndefined();
  });
});

describe('openai-compatible transcription', () => {
  const audio = {
    model: 'whisper-x',
    audio: Buffer.alloc(1234, 1),
    filename: 'clip.wav',
    mimeType: 'audio/wav',
    language: 'en',
    signal,
  };

  it('sends multipart with verbose_json and maps segments', async () => {
    const result = await provider.capabilities.transcription!.transcribe(audio);
    expect(upstream.requests[0].body).toEqual({
      fields: { model: 'whisper-x', response_format: 'verbose_json', language: 'en' },
      files: { file: { filename: 'clip.wav', type: 'audio/wav', size: 1234 } },
    });
    expect(result).toEqual({
      text: 'Transcript of clip.wav with 1234 bytes.',
      language: 'en',
      duration: 2,
      segments: [
        { id: 0, start: 0, end: 1, text: 'Transcript of clip.wav' },
        { id: 1, start: 1, end: 2, text: 'with 1234 bytes.' },
      ],
    });
  });

  it('falls back to json when the upstream rejects verbose_json', async () => {
    await provider.close();
    await upstream.close();
    await setUp({ verboseJson: false });
    const result = await provider.capabilities.transcription!.transcribe(audio);
    expect(
      upstream.requests.map((request) => (request.body as { fields: Record<string, string> }).fields.response_format),
    ).toEqual(['verbose_json', 'json']);
    expect(result).toEqual({ text: 'Transcript of clip.wav with 1234 bytes.', segments: [] });
  });
});

describe('openai-compatible status', () => {
  it('is ready', () => {
    expect(provider.status()).toEqual({ state: 'ready' });
    expect(Object.keys(provider.capabilities).sort()).toEqual([
      'chat',
      'completions',
      'embeddings',
      'image_generation',
      'moderation',
      'transcription',
    ]);
  });
});
