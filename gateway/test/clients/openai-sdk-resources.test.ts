import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { makeWav } from '../support/wav.js';
import { useClientsStack } from './responses-config.js';

/** The openai SDK on the resources the chat, batch and Responses tests do not cover: tools, files, models, images, audio, moderations. */
const stack = useClientsStack();
const client = () => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { input: { type: 'string' } } },
  },
};

describe('the official openai SDK, every other resource the gateway serves', () => {
  it('presence_penalty and frequency_penalty reach the upstream from chat and completions, plain and streamed', async () => {
    const penalties = { presence_penalty: 0.5, frequency_penalty: -0.25 };
    await client().chat.completions.create({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'hi' }],
      ...penalties,
    });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({ ...penalties, stream: false });
    for await (const _chunk of await client().chat.completions.create({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      ...penalties,
    }));
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({ ...penalties, stream: true });
    await client().completions.create({ model: 'svc-large-3', prompt: 'once upon', ...penalties });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({ ...penalties, prompt: 'once upon' });
    await expect(
      client().chat.completions.create({
        model: 'svc-large-3',
        messages: [{ role: 'user', content: 'hi' }],
        presence_penalty: 3,
      }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('chat with tools: the call, plain and streamed, then the tool result', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'get_weather in Paris' }];
    const completion = await client().chat.completions.create({ model: 'svc-large-3', messages, tools: [weather] });
    const call = completion.choices[0]!.message.tool_calls?.[0];
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: JSON.stringify({ input: 'get_weather in Paris' }) },
    });

    const stream = await client().chat.completions.create({
      model: 'svc-large-3',
      messages,
      tools: [weather],
      stream: true,
    });
    let name = '';
    let args = '';
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        name += delta.function?.name ?? '';
        args += delta.function?.arguments ?? '';
      }
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ input: 'get_weather in Paris' });

    await client().chat.completions.create({
      model: 'svc-large-3',
      tools: [weather],
      messages: [
        ...messages,
        completion.choices[0]!.message,
        { role: 'tool', tool_call_id: call!.id, content: 'sunny' },
      ],
    });
    const sent = stack.upstream.requests.at(-1)!.body as { messages: Record<string, unknown>[] };
    expect(sent.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: call!.id, content: 'sunny' });
  });

  it('files: create, list, retrieve, content, delete', async () => {
    const file = await client().files.create({
      file: await toFile(Buffer.from('{"custom_id":"a","body":{}}\n'), 'input.jsonl'),
      purpose: 'batch',
    });
    expect(file).toMatchObject({ object: 'file', filename: 'input.jsonl', purpose: 'batch', bytes: 28 });
    expect((await client().files.list()).data.map((entry) => entry.id)).toContain(file.id);
    expect(await client().files.retrieve(file.id)).toMatchObject({ id: file.id });
    expect(await (await client().files.content(file.id)).text()).toBe('{"custom_id":"a","body":{}}\n');
    expect(await client().files.delete(file.id)).toMatchObject({ id: file.id, deleted: true });
    await expect(client().files.retrieve(file.id)).rejects.toMatchObject({ status: 404 });
  });

  it('models: list and retrieve', async () => {
    const ids = [];
    for await (const model of client().models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['svc-large-3-2512', 'image-model', 'whisper-model']));
    expect(await client().models.retrieve('svc-large-3-2512')).toMatchObject({
      id: 'svc-large-3-2512',
      object: 'model',
    });
    await expect(client().models.retrieve('no-such-model')).rejects.toMatchObject({ status: 404 });
  });

  it('images.generate, as b64_json', async () => {
    const result = await client().images.generate({
      model: 'image-model',
      prompt: 'a lighthouse',
      size: '256x256',
      response_format: 'b64_json',
    });
    const png = Buffer.from(result.data![0]!.b64_json!, 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(256);
  });

  it('audio.transcriptions.create, json and text', async () => {
    const wav = () => toFile(makeWav(1), 'clip.wav', { type: 'audio/wav' });
    const json = await client().audio.transcriptions.create({ model: 'whisper-model', file: await wav() });
    expect(json.text.length).toBeGreaterThan(0);
    const text = await client().audio.transcriptions.create({
      model: 'whisper-model',
      file: await wav(),
      response_format: 'text',
    });
    expect(typeof text === 'string' ? text.trim() : '').toBe(json.text.trim());
  });

  it("a stream that fails mid-way throws in the for-await loop with the gateway's message, after the chunks that came", async () => {
    stack.upstream.setBehaviour({
      failure: { type: 'cut_mid_stream', afterFrames: 2 },
      path: '/v1/chat/completions',
      times: 1,
    });
    const stream = await client().chat.completions.create({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'a b c d e f' }],
      stream: true,
    });
    let text = '';
    const reading = (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })();
    await expect(reading).rejects.toMatchObject({ type: 'upstream_error', message: expect.stringMatching(/.{10,}/) });
    expect(text.length).toBeGreaterThan(0);
  });

  it('moderations on a chat model: a clear 400 capability_not_supported naming the models that moderate', async () => {
    // The SDK reads the nested `error`: its message, code and type reach the caller, not only the status.
    await expect(client().moderations.create({ model: 'svc-large-3', input: 'hello' })).rejects.toMatchObject({
      status: 400,
      code: 'capability_not_supported',
      type: 'invalid_request_error',
      message: expect.stringMatching(/^400 .*does not support moderation.*svc-moderation-local/),
    });
  });

  it('audio.speech: a clear 404 capability_not_served saying there is no text-to-speech backend', async () => {
    await expect(
      client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hello' }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'capability_not_served',
      type: 'not_found_error',
      message: expect.stringMatching(
        /^404 \/v1\/audio\/speech is not served: this gateway has no text-to-speech backend/,
      ),
    });
  });

  it("conversations (OpenAI's API, on the path of Mistral's) and hosted-platform resources: a clear 404 capability_not_served", async () => {
    const notServed = { status: 404, code: 'capability_not_served', type: 'not_found_error' };
    await expect(
      client().conversations.create({ items: [{ type: 'message', role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({
      ...notServed,
      message: expect.stringMatching(/OpenAI's Conversations API is not served.*previous_response_id/),
    });
    await expect(client().conversations.items.list('conv_1')).rejects.toMatchObject({
      ...notServed,
      message: expect.stringMatching(/OpenAI's Conversations API is not served/),
    });
    await expect(client().vectorStores.list()).rejects.toMatchObject({
      ...notServed,
      message: expect.stringMatching(/\/v1\/vector_stores… \(vector stores\) is part of OpenAI's hosted platform/),
    });
    await expect(client().fineTuning.jobs.list()).rejects.toMatchObject({
      ...notServed,
      message: expect.stringMatching(/fine-tuning jobs/),
    });
    await expect(client().beta.assistants.list()).rejects.toMatchObject(notServed);
  });

  it('images.edit and audio.translations: no backend edits images or translates speech, the 404 names the route and where the API is described', async () => {
    const unknownRoute = { status: 404, code: 'route_not_found', type: 'not_found_error' };
    await expect(
      client().images.edit({
        model: 'image-model',
        image: new File([new Uint8Array(8)], 'in.png'),
        prompt: 'add a hat',
      }),
    ).rejects.toMatchObject({
      ...unknownRoute,
      message: expect.stringMatching(/No route POST \/v1\/images\/edits\. The API is described at \/openapi\.json/),
    });
    await expect(
      client().audio.translations.create({ model: 'whisper-model', file: new File([new Uint8Array(8)], 'in.wav') }),
    ).rejects.toMatchObject(unknownRoute);
  });
});
