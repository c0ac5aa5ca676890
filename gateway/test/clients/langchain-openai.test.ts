import { ChatOpenAI } from '@langchain/openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();

beforeEach(() => {
  stack.upstream.requests.length = 0;
});

describe('@langchain/openai with useResponsesApi', () => {
  const model = (name = 'svc-large-3') => new ChatOpenAI({ model: name, apiKey: ADMIN_KEY, configuration: { baseURL: `${stack.gateway.url}/v1` }, useResponsesApi: true, maxRetries: 0 });

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
    const withTools = model().bindTools([{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] } } }]);
    const message = await withTools.invoke('langchain get_weather');
    expect(message.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { input: 'langchain get_weather' } });
  });

  it('on an upstream that speaks the Responses API', async () => {
    const message = await model('native-model').invoke('native langchain');
    expect(message.text).toBe('native langchain');
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/responses');
  });
});
