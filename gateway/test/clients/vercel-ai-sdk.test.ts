import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import {
  embed,
  embedMany,
  experimental_generateSpeech as generateSpeech,
  experimental_transcribe as transcribe,
  generateImage,
  generateObject,
  generateText,
  jsonSchema,
  stepCountIs,
  streamObject,
  streamText,
  tool,
} from 'ai';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, type Json } from '../support/start-gateway.js';
import { makeWav } from '../support/wav.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();

beforeEach(() => {
  stack.upstream.requests.length = 0;
});

const weatherTool = (calls: string[]) =>
  tool({
    description: 'Weather for a city',
    inputSchema: jsonSchema<{ input: string }>({
      type: 'object',
      properties: { input: { type: 'string' } },
      required: ['input'],
      additionalProperties: false,
    }),
    execute: async ({ input }) => {
      calls.push(input);
      return { temperature: 21 };
    },
  });

describe('the Vercel AI SDK with the default @ai-sdk/openai provider (the Responses API)', () => {
  const openai = () => createOpenAI({ apiKey: ADMIN_KEY, baseURL: `${stack.gateway.url}/v1` });

  it('generateText', async () => {
    const result = await generateText({
      model: openai()('svc-large-3'),
      system: 'Be brief.',
      prompt: 'generated text here',
    });
    expect(result.text).toBe('generated text here');
    expect(result.usage.outputTokens).toBe(3);
    expect(result.finishReason).toBe('stop');
    expect(stack.upstream.requests.map((request) => request.path)).toEqual(['/v1/chat/completions']);
  });

  it('streamText', async () => {
    const result = streamText({ model: openai()('svc-large-3'), prompt: 'streamed text here' });
    let text = '';
    for await (const piece of result.textStream) text += piece;
    expect(text).toBe('streamed text here');
    expect((await result.usage).outputTokens).toBe(3);
  });

  it('a tool call, its result sent back, and the next step (item references to stored items)', async () => {
    const calls: string[] = [];
    const result = await generateText({
      model: openai()('svc-large-3'),
      prompt: 'use get_weather please',
      tools: { get_weather: weatherTool(calls) },
      stopWhen: stepCountIs(2),
    });
    // The fake upstream calls the tool whenever the user's text names it, so the second step calls it again.
    expect(calls[0]).toBe('use get_weather please');
    expect(result.steps[0].toolCalls[0]).toMatchObject({
      toolName: 'get_weather',
      input: { input: 'use get_weather please' },
    });
    expect(result.steps).toHaveLength(2);
    const second: Json = stack.upstream.requests.at(-1)?.body;
    expect(second.messages.map((message: Json) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second.messages[2].content).toBe(JSON.stringify({ temperature: 21 }));
  });

  it('a streamed tool call', async () => {
    const calls: string[] = [];
    const result = streamText({
      model: openai()('svc-large-3'),
      prompt: 'stream get_weather',
      tools: { get_weather: weatherTool(calls) },
    });
    const toolCalls = await result.toolCalls;
    expect(toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { input: 'stream get_weather' } });
    await result.consumeStream();
    expect(calls).toEqual(['stream get_weather']);
  });

  it('generateObject and streamObject: the JSON schema reaches the model as text.format, the object comes back parsed', async () => {
    const result = await generateObject({
      model: openai()('svc-large-3'),
      schema: citySchema,
      prompt: '{"city":"Paris","temperature":21}',
    });
    expect(result.object).toEqual({ city: 'Paris', temperature: 21 });
    const sent: Json = stack.upstream.requests.at(-1)?.body;
    expect(sent.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { properties: { city: { type: 'string' } } } },
    });

    // streamObject's promises settle once its stream is read.
    const streamed = streamObject({
      model: openai()('svc-large-3'),
      schema: citySchema,
      prompt: '{"city":"Lyon","temperature":18}',
    });
    const partials = [];
    for await (const partial of streamed.partialObjectStream) partials.push(partial);
    expect(partials.at(-1)).toEqual({ city: 'Lyon', temperature: 18 });
    expect(await streamed.object).toEqual({ city: 'Lyon', temperature: 18 });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({
      stream: true,
      response_format: { type: 'json_schema' },
    });
  });

  it('the chat completions API (openai.chat): generateText, streamText, generateObject', async () => {
    const result = await generateText({ model: openai().chat('svc-large-3'), prompt: 'chat api words' });
    expect(result.text).toBe('chat api words');
    expect(result.usage.outputTokens).toBe(3);
    const stream = streamText({ model: openai().chat('svc-large-3'), prompt: 'chat api stream' });
    let text = '';
    for await (const piece of stream.textStream) text += piece;
    expect(text).toBe('chat api stream');
    const object = await generateObject({
      model: openai().chat('svc-large-3'),
      schema: citySchema,
      prompt: '{"city":"Nice","temperature":25}',
    });
    expect(object.object).toEqual({ city: 'Nice', temperature: 25 });
    expect(stack.upstream.requests.every((request) => request.path === '/v1/chat/completions')).toBe(true);
  });

  it('embed and embedMany', async () => {
    const one = await embed({ model: openai().embedding('svc-large-3'), value: 'sunny day' });
    expect(one.embedding.length).toBeGreaterThan(0);
    expect(one.embedding.every((value) => Number.isFinite(value))).toBe(true);
    const many = await embedMany({ model: openai().embedding('svc-large-3'), values: ['one', 'two', 'three'] });
    expect(many.embeddings).toHaveLength(3);
    expect(many.embeddings[0]).toHaveLength(one.embedding.length);
    expect(many.embeddings[0]).not.toEqual(many.embeddings[1]);
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/embeddings');
  });

  it('generateImage', async () => {
    const result = await generateImage({
      model: openai().image('image-model'),
      prompt: 'a lighthouse',
      size: '256x256',
    });
    expect(result.images).toHaveLength(1);
    expect([...result.images[0]!.uint8Array.subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join('')).toBe(
      'PNG',
    );
  });

  it('transcribe', async () => {
    const result = await transcribe({
      model: openai().transcription('whisper-model'),
      audio: new Uint8Array(makeWav(1)),
    });
    expect(result.text.length).toBeGreaterThan(0);
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/audio/transcriptions');
  });

  it('generateSpeech: the clear 404 saying there is no text-to-speech backend', async () => {
    await expect(generateSpeech({ model: openai().speech('tts-1'), text: 'hello' })).rejects.toMatchObject({
      statusCode: 404,
      responseBody: expect.stringMatching(/capability_not_served.*no text-to-speech backend/),
    });
  });

  it('passes through to an upstream that speaks the Responses API', async () => {
    const result = await generateText({ model: openai()('native-model'), prompt: 'native generated' });
    expect(result.text).toBe('native generated');
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/responses');
  });
});

const citySchema = jsonSchema<{ city: string; temperature: number }>({
  type: 'object',
  properties: { city: { type: 'string' }, temperature: { type: 'number' } },
  required: ['city', 'temperature'],
  additionalProperties: false,
});

describe('the Vercel AI SDK with @ai-sdk/mistral', () => {
  const mistral = () => createMistral({ apiKey: ADMIN_KEY, baseURL: `${stack.gateway.url}/v1` });

  it('generateText and streamText', async () => {
    const result = await generateText({ model: mistral()('svc-large-3'), prompt: 'bonjour tout le monde' });
    expect(result.text).toBe('bonjour tout le monde');
    expect(result.usage.outputTokens).toBe(4);
    const stream = streamText({ model: mistral()('svc-large-3'), prompt: 'flux de texte' });
    let text = '';
    for await (const piece of stream.textStream) text += piece;
    expect(text).toBe('flux de texte');
  });

  it('a tool call', async () => {
    const calls: string[] = [];
    const result = await generateText({
      model: mistral()('svc-large-3'),
      prompt: 'mistral get_weather',
      tools: { get_weather: weatherTool(calls) },
    });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'get_weather' });
    expect(calls).toEqual(['mistral get_weather']);
  });

  it('generateObject and embed', async () => {
    const result = await generateObject({
      model: mistral()('svc-large-3'),
      schema: citySchema,
      prompt: '{"city":"Brest","temperature":12}',
    });
    expect(result.object).toEqual({ city: 'Brest', temperature: 12 });
    expect((stack.upstream.requests.at(-1)?.body as Json).response_format).toMatchObject({ type: 'json_schema' });
    const embedded = await embedMany({ model: mistral().embedding('svc-large-3'), values: ['un', 'deux'] });
    expect(embedded.embeddings).toHaveLength(2);
    expect(embedded.embeddings[0]!.length).toBeGreaterThan(0);
  });
});
