import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, json, startGateway, type Json } from '../support/start-gateway.js';
import { clientsConfig, useClientsStack } from './responses-config.js';

const stack = useClientsStack();
const client = () => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });

beforeEach(() => {
  stack.upstream.requests.length = 0;
});

const lastUpstreamBody = (): Json => stack.upstream.requests.at(-1)?.body;

describe('the openai SDK on the Responses API, translated to chat', () => {
  it('answers a string input, with instructions as the system message, and bills it like chat', async () => {
    const { data: response, response: raw } = await client()
      .responses.create({ model: 'svc-large-3', instructions: 'Be brief.', input: 'plain answer here' })
      .withResponse();
    expect(response.object).toBe('response');
    expect(response.id).toMatch(/^resp_/);
    expect(response.status).toBe('completed');
    expect(response.model).toBe('svc-large-3-2512');
    expect(response.output_text).toBe('plain answer here');
    expect(response.output[0]).toMatchObject({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'plain answer here' }],
    });
    expect(response.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
    expect(Number(raw.headers.get('x-request-cost'))).toBeGreaterThan(0);
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/chat/completions');
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'plain answer here' }] },
    ]);
  });

  it('streams the typed event sequence the SDK expects', async () => {
    const stream = await client().responses.create({
      model: 'svc-large-3',
      input: [{ role: 'user', content: 'streamed words here' }],
      stream: true,
    });
    const events: Json[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(
      events
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe('streamed words here');
    const completed = events.at(-1);
    expect(completed.response.status).toBe('completed');
    expect(completed.response.output[0].content[0].text).toBe('streamed words here');
    expect(completed.response.usage.output_tokens).toBe(3);
    const itemId = events[2].item.id;
    expect(events.slice(3, 9).every((event) => event.item_id === itemId)).toBe(true);
    expect(events[9].item.id).toBe(itemId);
  });

  it('the SDK stream helper gives the final response', async () => {
    const stream = client().responses.stream({ model: 'svc-large-3', input: 'helper stream' });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('helper stream');
  });

  it('function tools and tool_choice: a function_call item, plain and streamed', async () => {
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        strict: false,
      },
    ];
    const response = await client().responses.create({
      model: 'svc-large-3',
      input: 'call get_weather for Paris',
      tools,
      tool_choice: 'auto',
    });
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
    expect(JSON.parse((call as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual({
      input: 'call get_weather for Paris',
    });
    expect(lastUpstreamBody().tools[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(lastUpstreamBody().tool_choice).toBe('auto');

    await client().responses.create({
      model: 'svc-large-3',
      input: 'anything',
      tools,
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect(lastUpstreamBody().tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });

    const stream = await client().responses.create({
      model: 'svc-large-3',
      input: 'call get_weather now',
      tools,
      stream: true,
    });
    const events: Json[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types).toContain('response.function_call_arguments.delta');
    const done = events.find((event) => event.type === 'response.function_call_arguments.done');
    expect(done).toMatchObject({ name: 'get_weather', arguments: JSON.stringify({ input: 'call get_weather now' }) });
    expect(
      events
        .filter((event) => event.type === 'response.function_call_arguments.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe(done.arguments);
    expect(events.at(-1).response.output[0]).toMatchObject({
      type: 'function_call',
      name: 'get_weather',
      call_id: expect.any(String),
    });

    // The tool's result goes back as a function_call_output item.
    const callId = (call as OpenAI.Responses.ResponseFunctionToolCall).call_id;
    await client().responses.create({
      model: 'svc-large-3',
      input: [
        { role: 'user', content: 'call get_weather for Paris' },
        call as OpenAI.Responses.ResponseFunctionToolCall,
        { type: 'function_call_output', call_id: callId, output: '{"temp": 21}' },
      ],
      tools,
    });
    expect(lastUpstreamBody().messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: callId,
            type: 'function',
            function: { name: 'get_weather', arguments: JSON.stringify({ input: 'call get_weather for Paris' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: callId, content: '{"temp": 21}' },
    ]);
  });

  it('text.format with a JSON schema and max_output_tokens reach the model; a cut answer is incomplete', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    await client().responses.create({
      model: 'svc-large-3',
      input: 'Paris',
      text: { format: { type: 'json_schema', name: 'place', schema, strict: true } },
    });
    expect(lastUpstreamBody().response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'place', schema, strict: true },
    });

    const cut = await client().responses.create({
      model: 'svc-large-3',
      input: 'one two three four five',
      max_output_tokens: 2,
    });
    expect(lastUpstreamBody().max_tokens).toBe(2);
    expect(cut.status).toBe('incomplete');
    expect(cut.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(cut.output_text).toBe('one two ');
  });

  it('retrieve, input items, previous_response_id, delete', async () => {
    const first = await client().responses.create({ model: 'svc-large-3', input: 'remember the word apple' });
    const fetched = await client().responses.retrieve(first.id);
    expect(fetched.id).toBe(first.id);
    expect(fetched.output_text).toBe('remember the word apple');

    const items = await client().responses.inputItems.list(first.id);
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'remember the word apple' }],
    });
    expect(items.data[0].id).toEqual(expect.any(String));

    const second = await client().responses.create({
      model: 'svc-large-3',
      input: 'which word?',
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'remember the word apple' }] },
      { role: 'assistant', content: 'remember the word apple' },
      { role: 'user', content: [{ type: 'text', text: 'which word?' }] },
    ]);
    // A chain keeps going: the third turn sees all of it.
    await client().responses.create({ model: 'svc-large-3', input: 'and again?', previous_response_id: second.id });
    expect(lastUpstreamBody().messages).toHaveLength(5);

    await client().responses.delete(first.id);
    await expect(client().responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      client().responses.create({ model: 'svc-large-3', input: 'x', previous_response_id: first.id }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('store: false keeps nothing', async () => {
    const response = await client().responses.create({ model: 'svc-large-3', input: 'forget me', store: false });
    expect((response as Json).store).toBe(false);
    await expect(client().responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 });
    const continued = await stack.gateway.request('/v1/responses', {
      method: 'POST',
      json: { model: 'svc-large-3', input: 'x', previous_response_id: response.id },
    });
    expect(continued.status).toBe(404);
    expect(await json(continued)).toMatchObject({
      object: 'error',
      code: 'response_not_found',
      param: 'previous_response_id',
    });
  });

  it('a stored response survives a restart of the gateway', async () => {
    const dataGateway = await startGateway({ config: clientsConfig(stack.upstream) });
    const sdk = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${dataGateway.url}/v1`, maxRetries: 0 });
    const response = await sdk.responses.create({ model: 'svc-large-3', input: 'kept on disk' });
    await dataGateway.stop();
    const again = await startGateway({ config: clientsConfig(stack.upstream), dataDir: dataGateway.dataDir });
    try {
      const after = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${again.url}/v1`, maxRetries: 0 });
      expect((await after.responses.retrieve(response.id)).output_text).toBe('kept on disk');
    } finally {
      await again.close();
      await dataGateway.close();
    }
  });

  it('refuses what nothing here can run, with the documented error shape', async () => {
    const builtIn = await stack.gateway.request('/v1/responses', {
      method: 'POST',
      json: { model: 'svc-large-3', input: 'search', tools: [{ type: 'web_search' }] },
    });
    expect(builtIn.status).toBe(422);
    expect(await json(builtIn)).toMatchObject({
      object: 'error',
      type: 'invalid_request_error',
      param: 'tools[0].type',
    });
    const noInput = await stack.gateway.request('/v1/responses', { method: 'POST', json: { model: 'svc-large-3' } });
    expect(noInput.status).toBe(422);
    expect(await json(noInput)).toMatchObject({ param: 'input' });
    const badItem = await stack.gateway.request('/v1/responses', {
      method: 'POST',
      json: { model: 'svc-large-3', input: [{ type: 'mystery' }] },
    });
    expect(badItem.status).toBe(422);
    expect(await json(badItem)).toMatchObject({ param: 'input[0].type' });
    expect(stack.upstream.requests).toHaveLength(0);
    const unknownModel = await stack.gateway.request('/v1/responses', {
      method: 'POST',
      json: { model: 'nope', input: 'x' },
    });
    expect(unknownModel.status).toBe(404);
    const missing = await stack.gateway.request('/v1/responses/resp_missing/input_items');
    expect(missing.status).toBe(404);
  });

  it('an upstream failure after the stream started ends with an error event, not a silent close', async () => {
    stack.upstream.setBehaviour({
      failure: { type: 'cut_mid_stream', afterFrames: 2 },
      times: 1,
      path: '/v1/chat/completions',
    });
    const response = await stack.gateway.request('/v1/responses', {
      method: 'POST',
      json: { model: 'svc-large-3', input: 'one two three', stream: true },
    });
    const text = await response.text();
    stack.upstream.setBehaviour(null);
    expect(text).toContain('event: response.created');
    expect(text).toMatch(/event: error\ndata: \{"type":"error"/);
    expect(text).not.toContain('response.completed');
  });
});

describe('the openai SDK on the Responses API, passed through to an upstream that speaks it', () => {
  it('plain: the upstream gets its own model name, the client sees the gateway model', async () => {
    const response = await client().responses.create({ model: 'native-model', input: 'native words' });
    expect(stack.upstream.requests.at(-1)?.path).toBe('/v1/responses');
    expect(lastUpstreamBody().model).toBe('native-upstream');
    expect(response.model).toBe('native-model');
    expect(response.output_text).toBe('native words');
    expect((await client().responses.retrieve(response.id)).output_text).toBe('native words');
  });

  it('streamed: the upstream events are relayed in order', async () => {
    const stream = await client().responses.create({
      model: 'native-model',
      input: 'relayed stream words',
      stream: true,
    });
    const events: Json[] = [];
    for await (const event of stream) events.push(event);
    expect(events[0].type).toBe('response.created');
    expect(events[0].response.model).toBe('native-model');
    expect(
      events
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe('relayed stream words');
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { model: 'native-model' } });
  });

  it('continuing a translated response on a native upstream sends the conversation, not an id it cannot know', async () => {
    const first = await client().responses.create({ model: 'svc-large-3', input: 'translated first turn' });
    await client().responses.create({
      model: 'native-model',
      input: 'native second turn',
      previous_response_id: first.id,
    });
    const body = lastUpstreamBody();
    expect(body.previous_response_id).toBeUndefined();
    expect(body.input.map((item: Json) => item.role ?? item.type)).toEqual(['user', 'assistant', 'user']);
  });
});
