import { ChatOpenAI, DallEAPIWrapper, OpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();

beforeEach(() => {
  stack.upstream.requests.length = 0;
});

describe('@langchain/openai with useResponsesApi', () => {
  const model = (name = 'svc-large-3') =>
    new ChatOpenAI({
      model: name,
      apiKey: ADMIN_KEY,
      configuration: { baseURL: `${stack.gateway.url}/v1` },
      useResponsesApi: true,
      maxRetries: 0,
    });

  it('invoke', async () => {
    const message = await model().invoke([
      ['system', 'Be brief.'],
      ['human', 'langchain invoke words'],
    ]);
    expect(message.text).toBe('langchain invoke words');
    expect(message.usage_metadata).toMatchObject({ output_tokens: 3 });
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/chat/completions');
  });

  it('stream', async () => {
    let text = '';
    for await (const chunk of await model().stream('langchain streamed words')) text += chunk.text;
    expect(text).toBe('langchain streamed words');
  });

  it('tool calls', async () => {
    const withTools = model().bindTools([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        },
      },
    ]);
    const message = await withTools.invoke('langchain get_weather');
    expect(message.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { input: 'langchain get_weather' } });
  });

  it('on an upstream that speaks the Responses API', async () => {
    const message = await model('native-model').invoke('native langchain');
    expect(message.text).toBe('native langchain');
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/responses');
  });
});

const city = {
  type: 'object',
  properties: { city: { type: 'string' }, temperature: { type: 'number' } },
  required: ['city', 'temperature'],
  additionalProperties: false,
};
const configuration = () => ({ baseURL: `${stack.gateway.url}/v1` });

describe('@langchain/openai with useResponsesApi: structured output', () => {
  it('withStructuredOutput sends the schema as text.format and parses the answer', async () => {
    const model = new ChatOpenAI({
      model: 'svc-large-3',
      apiKey: ADMIN_KEY,
      configuration: configuration(),
      useResponsesApi: true,
      maxRetries: 0,
    });
    const structured = model.withStructuredOutput(city, { name: 'city_weather', method: 'jsonSchema' });
    expect(await structured.invoke('{"city":"Paris","temperature":21}')).toEqual({ city: 'Paris', temperature: 21 });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'city_weather' } },
    });
  });
});

describe('@langchain/openai on the chat completions API (its default), embeddings, completions and images', () => {
  const chat = () =>
    new ChatOpenAI({ model: 'svc-large-3', apiKey: ADMIN_KEY, configuration: configuration(), maxRetries: 0 });

  it('ChatOpenAI: invoke, stream, tool calls, withStructuredOutput', async () => {
    const message = await chat().invoke('plain chat words');
    expect(message.text).toBe('plain chat words');
    expect(message.usage_metadata).toMatchObject({ output_tokens: 3 });
    let text = '';
    for await (const chunk of await chat().stream('streamed chat words')) text += chunk.text;
    expect(text).toBe('streamed chat words');
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
    expect((await withTools.invoke('chat get_weather')).tool_calls?.[0]).toMatchObject({
      name: 'get_weather',
      args: { input: 'chat get_weather' },
    });
    const structured = chat().withStructuredOutput(city, { name: 'city_weather', method: 'jsonSchema' });
    expect(await structured.invoke('{"city":"Lille","temperature":9}')).toEqual({ city: 'Lille', temperature: 9 });
    expect(stack.upstream.requests.every((request) => request.path === '/v1/chat/completions')).toBe(true);
  });

  it('OpenAIEmbeddings: embedQuery and embedDocuments', async () => {
    const embeddings = new OpenAIEmbeddings({
      model: 'svc-large-3',
      apiKey: ADMIN_KEY,
      configuration: configuration(),
      maxRetries: 0,
    });
    const query = await embeddings.embedQuery('where is the station');
    expect(query.length).toBeGreaterThan(0);
    const documents = await embeddings.embedDocuments(['first page', 'second page']);
    expect(documents).toHaveLength(2);
    expect(documents[0]).toHaveLength(query.length);
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/embeddings');
  });

  it('OpenAI (completions)', async () => {
    const llm = new OpenAI({ model: 'svc-large-3', apiKey: ADMIN_KEY, configuration: configuration(), maxRetries: 0 });
    expect(await llm.invoke('Once upon a time')).toEqual(expect.any(String));
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/completions');
  });

  it('DallEAPIWrapper (image generation) returns the image', async () => {
    const images = new DallEAPIWrapper({
      model: 'image-model',
      apiKey: ADMIN_KEY,
      baseUrl: `${stack.gateway.url}/v1`,
      size: '256x256',
      dallEResponseFormat: 'b64_json',
    });
    const result = await images.invoke('a red bicycle');
    expect(typeof result === 'string' ? result : JSON.stringify(result)).toMatch(/^iVBORw0KGgo/);
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/images/generations');
  });
});
