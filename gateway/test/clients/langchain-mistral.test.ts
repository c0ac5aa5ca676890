import type { AIMessageChunk } from '@langchain/core/messages';
import { ChatMistralAI, MistralAI, MistralAIEmbeddings } from '@langchain/mistralai';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();

beforeEach(() => {
  stack.upstream.requests.length = 0;
});

const serverURL = () => stack.gateway.url;
const chat = () =>
  new ChatMistralAI({ model: 'svc-large-3', apiKey: ADMIN_KEY, serverURL: serverURL(), maxRetries: 0 });

describe('@langchain/mistralai: ChatMistralAI', () => {
  it('invoke', async () => {
    const message = await chat().invoke([
      ['system', 'Be brief.'],
      ['human', 'mistral langchain words'],
    ]);
    expect(message.text).toBe('mistral langchain words');
    expect(message.usage_metadata).toMatchObject({ output_tokens: 3 });
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/chat/completions');
  });

  it('stream: the chunks put together are the answer', async () => {
    const pieces: string[] = [];
    for await (const chunk of await chat().stream('mistral streamed langchain words')) pieces.push(chunk.text);
    expect(pieces.filter((piece) => piece !== '').length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('mistral streamed langchain words');
  });

  it('bindTools: the tool call comes back parsed', async () => {
    const withTools = chat().bindTools([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        },
      },
    ]);
    const message = await withTools.invoke('mistral get_weather');
    expect(message.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { input: 'mistral get_weather' } });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
    });
  });

  it('bindTools, streamed: the chunks put together carry the parsed tool call', async () => {
    const withTools = chat().bindTools([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        },
      },
    ]);
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await withTools.stream('streamed get_weather'))
      whole = whole ? whole.concat(chunk) : chunk;
    expect(whole?.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { input: 'streamed get_weather' } });
  });

  it('withStructuredOutput (zod) by function calling, its default, and in JSON mode', async () => {
    const byTool = chat().withStructuredOutput(z.object({ input: z.string() }), { name: 'echo' });
    expect(await byTool.invoke('structured by a tool')).toEqual({ input: 'structured by a tool' });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({ tools: [{ function: { name: 'echo' } }] });
    const city = z.object({ city: z.string(), temperature: z.number() });
    const byJson = chat().withStructuredOutput(city, { name: 'city_weather', method: 'jsonMode' });
    expect(await byJson.invoke('{"city":"Paris","temperature":21}')).toEqual({ city: 'Paris', temperature: 21 });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('batch answers each input in order', async () => {
    const answers = await chat().batch(['first batch words', 'second batch words']);
    expect(answers.map((answer) => answer.text)).toEqual(['first batch words', 'second batch words']);
  });
});

describe('@langchain/mistralai: MistralAIEmbeddings', () => {
  it('embedDocuments and embedQuery', async () => {
    const embeddings = new MistralAIEmbeddings({
      model: 'svc-large-3',
      apiKey: ADMIN_KEY,
      serverURL: serverURL(),
      maxRetries: 0,
    });
    const query = await embeddings.embedQuery('where is the station');
    expect(query.length).toBeGreaterThan(0);
    const documents = await embeddings.embedDocuments(['first page', 'second page', 'where is the station']);
    expect(documents).toHaveLength(3);
    expect(documents.every((vector) => vector.length === query.length)).toBe(true);
    expect(documents[2]).toEqual(query);
    expect(documents[0]).not.toEqual(documents[1]);
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/embeddings');
  });
});

describe('@langchain/mistralai: MistralAI (fill in the middle)', () => {
  it('invoke on a model that can fill in the middle', async () => {
    const llm = new MistralAI({ model: 'codestral-model', apiKey: ADMIN_KEY, serverURL: serverURL(), maxRetries: 0 });
    expect(await llm.invoke('def add(a, b):', { suffix: 'return c' })).toBe('def add(a, b):');
    const sent = stack.upstream.requests.at(-1);
    expect(sent?.path).toBe('/v1/fim/completions');
    expect(sent?.body).toMatchObject({ model: 'codestral-upstream', prompt: 'def add(a, b):', suffix: 'return c' });
  });

  it('stream: the infill chunks put together are the answer', async () => {
    const llm = new MistralAI({ model: 'codestral-model', apiKey: ADMIN_KEY, serverURL: serverURL(), maxRetries: 0 });
    const pieces: string[] = [];
    for await (const piece of await llm.stream('def add(a, b):', { suffix: 'return c' })) pieces.push(piece);
    expect(pieces.filter((piece) => piece !== '').length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('def add(a, b):');
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({ stream: true, suffix: 'return c' });
  });

  it("with useFim on an OpenAI-compatible route, prompt and suffix go to the upstream's /v1/completions; without it, the prompt goes to chat", async () => {
    const fim = new MistralAI({
      model: 'svc-large-3',
      apiKey: ADMIN_KEY,
      serverURL: serverURL(),
      maxRetries: 0,
      useFim: true,
    });
    expect(await fim.invoke('x = ', { suffix: ';' })).toMatch(/^x =/);
    expect(stack.upstream.requests.at(-1)).toMatchObject({
      path: '/v1/completions',
      body: { prompt: 'x = ', suffix: ';' },
    });
    const chatBacked = new MistralAI({
      model: 'svc-large-3',
      apiKey: ADMIN_KEY,
      serverURL: serverURL(),
      maxRetries: 0,
    });
    expect(await chatBacked.invoke('plain completion words')).toBe('plain completion words');
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/chat/completions');
  });
});
