import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { ADMIN_KEY, startGateway, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY } from '../support/upstream-config.js';
import { clientsConfig } from './responses-config.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await startGateway({ config: clientsConfig(upstream) });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

describe('@langchain/openai with useResponsesApi', () => {
  const model = (name = 'svc-large-3') => new ChatOpenAI({ model: name, apiKey: ADMIN_KEY, configuration: { baseURL: `${gateway.url}/v1` }, useResponsesApi: true, maxRetries: 0 });

  it('invoke', async () => {
    const message = await model().invoke([
      ['system', 'Be brief.'],
      ['human', 'langchain invoke words'],
    ]);
    expect(message.text).toBe('langchain invoke words');
    expect(message.usage_metadata).toMatchObject({ output_tokens: 3 });
    expect(upstream.requests.at(-1)?.path).toBe('/v1/chat/completions');
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
    expect(upstream.requests.at(-1)?.path).toBe('/v1/responses');
  });
});
