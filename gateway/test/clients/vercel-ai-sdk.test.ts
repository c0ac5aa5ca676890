import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, type Json } from '../support/start-gateway.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();

beforeEach(() => {
  stack.upstream.requests.length = 0;
});

const weatherTool = (calls: string[]) =>
  tool({
    description: 'Weather for a city',
    inputSchema: jsonSchema<{ input: string }>({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'], additionalProperties: false }),
    execute: async ({ input }) => {
      calls.push(input);
      return { temperature: 21 };
    },
  });

describe('the Vercel AI SDK with the default @ai-sdk/openai provider (the Responses API)', () => {
  const openai = () => createOpenAI({ apiKey: ADMIN_KEY, baseURL: `${stack.gateway.url}/v1` });

  it('generateText', async () => {
    const result = await generateText({ model: openai()('svc-large-3'), system: 'Be brief.', prompt: 'generated text here' });
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
    const result = await generateText({ model: openai()('svc-large-3'), prompt: 'use get_weather please', tools: { get_weather: weatherTool(calls) }, stopWhen: stepCountIs(2) });
    // The fake upstream calls the tool whenever the user's text names it, so the second step calls it again.
    expect(calls[0]).toBe('use get_weather please');
    expect(result.steps[0].toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { input: 'use get_weather please' } });
    expect(result.steps).toHaveLength(2);
    const second: Json = stack.upstream.requests.at(-1)?.body;
    expect(second.messages.map((message: Json) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second.messages[2].content).toBe(JSON.stringify({ temperature: 21 }));
  });

  it('a streamed tool call', async () => {
    const calls: string[] = [];
    const result = streamText({ model: openai()('svc-large-3'), prompt: 'stream get_weather', tools: { get_weather: weatherTool(calls) } });
    const toolCalls = await result.toolCalls;
    expect(toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { input: 'stream get_weather' } });
    await result.consumeStream();
    expect(calls).toEqual(['stream get_weather']);
  });

  it('passes through to an upstream that speaks the Responses API', async () => {
    const result = await generateText({ model: openai()('native-model'), prompt: 'native generated' });
    expect(result.text).toBe('native generated');
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/responses');
  });
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
    const result = await generateText({ model: mistral()('svc-large-3'), prompt: 'mistral get_weather', tools: { get_weather: weatherTool(calls) } });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'get_weather' });
    expect(calls).toEqual(['mistral get_weather']);
  });
});
