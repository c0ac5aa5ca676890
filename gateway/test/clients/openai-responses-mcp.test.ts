import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../support/start-gateway.js';
import { useEverythingHttp, everythingStdio, fixtureStdio, processesWith } from '../support/mcp-servers.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { upstreamConfig } from '../support/upstream-config.js';

const CRASHY = `marker-crashy-${process.pid}`;
let upstream: FakeUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream({ toolLoop: true });
  gateway = await startGateway({
    config: {
      ...upstreamConfig(upstream),
      mcp_servers: [
        everythingStdio('everything'),
        { ...fixtureStdio('fixture'), max_output_chars: 1000 },
        { ...everythingStdio('slow'), timeout_ms: 300 },
        { ...everythingStdio('private', 'marker-private') },
        everythingStdio('crashy', CRASHY),
      ],
      server: { tool_loop_max_steps: 3, url_fetch_allow: ['127.0.0.1'] },
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const client = (apiKey = ADMIN_KEY) => new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const everything = { type: 'mcp' as const, server_label: 'everything', require_approval: 'never' as const };
const modelCalls = () => upstream.requests.filter((request) => request.path === '/v1/chat/completions');

describe('the openai SDK: responses.create with an mcp tool', () => {
  it('runs the tool on a configured stdio server and answers with its result', async () => {
    const before = modelCalls().length;
    const response = await client().responses.create({
      model: 'svc-large-3',
      input: 'please echo {"message": "hello tools"}',
      tools: [{ ...everything, allowed_tools: ['echo', 'get-sum'] }],
    });
    expect(response.status).toBe('completed');
    expect(response.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    const [list, call] = response.output as Json[];
    expect(list.server_label).toBe('everything');
    expect(list.tools.map((tool: Json) => tool.name).sort()).toEqual(['echo', 'get-sum']);
    expect(call).toMatchObject({
      type: 'mcp_call',
      server_label: 'everything',
      name: 'echo',
      arguments: '{"message":"hello tools"}',
      status: 'completed',
      output: 'Echo: hello tools',
      error: null,
    });
    expect(response.output_text).toBe('Tool said: Echo: hello tools');
    // Two model calls, the second with the call and its result; both billed.
    const calls = modelCalls().slice(before);
    expect(calls).toHaveLength(2);
    expect((calls[0]!.body as Json).tools.map((tool: Json) => tool.function.name).sort()).toEqual(['echo', 'get-sum']);
    expect((calls[1]!.body as Json).messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: expect.any(String),
            type: 'function',
            function: { name: 'echo', arguments: '{"message":"hello tools"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: expect.any(String), content: 'Echo: hello tools' },
    ]);
    expect(response.usage!.input_tokens).toBeGreaterThan((calls[0]!.body as Json).messages.length);
  });

  it('streams the mcp events in order, and the tool call is a span of the request in the request log', async () => {
    const stream = await client().responses.create({
      model: 'svc-large-3',
      input: 'please echo {"message": "streamed"}',
      tools: [everything],
      stream: true,
    });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types.slice(0, 6)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.mcp_list_tools.in_progress',
      'response.mcp_list_tools.completed',
      'response.output_item.done',
    ]);
    const callEvents = types.filter((type) => type.startsWith('response.mcp_call'));
    expect(callEvents[0]).toBe('response.mcp_call_arguments.delta');
    expect(callEvents.slice(-3)).toEqual([
      'response.mcp_call_arguments.done',
      'response.mcp_call.in_progress',
      'response.mcp_call.completed',
    ]);
    expect(types.at(-1)).toBe('response.completed');
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const final = (events.at(-1) as Json).response;
    expect(final.output.map((item: Json) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(final.output[1]).toMatchObject({ status: 'completed', output: 'Echo: streamed' });
    expect(final.output_text ?? final.output[2].content[0].text).toBe('Tool said: Echo: streamed');

    await expect
      .poll(async () => (await json(await gateway.request('/console/requests?limit=1'))).data[0]?.path)
      .toBe('/v1/responses');
    const log = await json(await gateway.request('/console/requests?limit=1'));
    const entry = await json(await gateway.request(`/console/requests/${log.data[0].id}`));
    // Both model calls are billed: the logged usage is the two calls' sum, as the response says.
    expect(entry.prompt_tokens).toBe(final.usage.input_tokens);
    expect(entry.completion_tokens).toBe(final.usage.output_tokens);
    expect(entry.cost).toBeGreaterThan(0);
    expect(entry.spans.filter((candidate: Json) => candidate.name.startsWith('chat ')).length).toBeGreaterThanOrEqual(
      2,
    );
    const span = entry.spans.find((candidate: Json) => candidate.name === 'execute_tool echo');
    expect(span).toMatchObject({
      status: 'unset',
      attributes: { 'gen_ai.tool.name': 'echo', 'switchyard.mcp.server': 'everything', 'switchyard.mcp.outcome': 'ok' },
    });
  });

  it('asks for approval, then a follow-up with previous_response_id runs the approved call', async () => {
    const tools = [{ type: 'mcp' as const, server_label: 'everything', require_approval: 'always' as const }];
    const first = await client().responses.create({
      model: 'svc-large-3',
      input: 'please echo {"message": "approved"}',
      tools,
    });
    expect(first.status).toBe('completed');
    const request = first.output.at(-1) as Json;
    expect(request).toMatchObject({
      type: 'mcp_approval_request',
      server_label: 'everything',
      name: 'echo',
      arguments: '{"message":"approved"}',
    });
    const before = modelCalls().length;
    const second = await client().responses.create({
      model: 'svc-large-3',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      tools,
    });
    expect(second.output.map((item) => item.type)).toEqual(['mcp_call', 'message']);
    expect(second.output[0]).toMatchObject({ approval_request_id: request.id, output: 'Echo: approved' });
    expect(second.output_text).toBe('Tool said: Echo: approved');
    expect(modelCalls().length - before).toBe(1);
  });

  it('streams the approval request, and a streamed follow-up runs the approved call with its events', async () => {
    const tools = [{ type: 'mcp' as const, server_label: 'everything', require_approval: 'always' as const }];
    const collect = async (stream: AsyncIterable<ResponseStreamEvent>) => {
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      return events;
    };
    const first = await collect(
      await client().responses.create({
        model: 'svc-large-3',
        input: 'please echo {"message": "streamed approval"}',
        tools,
        stream: true,
      }),
    );
    expect(first.at(-1)!.type).toBe('response.completed');
    const firstResponse = (first.at(-1) as Json).response;
    const request = firstResponse.output.at(-1);
    expect(request).toMatchObject({ type: 'mcp_approval_request', name: 'echo' });
    const added = first
      .filter((event) => event.type === 'response.output_item.added')
      .map((event) => (event as Json).item);
    expect(added.at(-1)).toMatchObject({ type: 'mcp_approval_request', id: request.id });
    expect(first.some((event) => event.type.startsWith('response.mcp_call.'))).toBe(false);

    const second = await collect(
      await client().responses.create({
        model: 'svc-large-3',
        previous_response_id: firstResponse.id,
        input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
        tools,
        stream: true,
      }),
    );
    const types = second.map((event) => event.type);
    expect(types).toContain('response.mcp_call.completed');
    expect(types.indexOf('response.mcp_call.completed')).toBeLessThan(types.indexOf('response.output_text.delta'));
    expect(types.at(-1)).toBe('response.completed');
    expect(second.map((event) => event.sequence_number)).toEqual(second.map((_, index) => index));
    const final = (second.at(-1) as Json).response;
    expect(final.output.map((item: Json) => item.type)).toEqual(['mcp_call', 'message']);
    expect(final.output[0]).toMatchObject({ approval_request_id: request.id, output: 'Echo: streamed approval' });
    expect(final.output[1].content[0].text).toBe('Tool said: Echo: streamed approval');
  });

  it('a refused call is told to the model and recorded as refused', async () => {
    const tools = [{ type: 'mcp' as const, server_label: 'fixture' }];
    // `big` is not annotated read-only: it waits for approval by default.
    const first = await client().responses.create({ model: 'svc-large-3', input: 'call big {"chars": 5}', tools });
    const request = first.output.at(-1) as Json;
    expect(request.type).toBe('mcp_approval_request');
    // The tool whose input schema is broken is left out of the list; the others are offered.
    expect((first.output[0] as Json).tools.map((tool: Json) => tool.name)).toEqual(['ok', 'grow', 'big']);
    const second = await client().responses.create({
      model: 'svc-large-3',
      previous_response_id: first.id,
      input: [
        { type: 'mcp_approval_response', approval_request_id: request.id, approve: false, reason: 'too big' } as never,
      ],
      tools,
    });
    expect(second.output[0]).toMatchObject({ type: 'mcp_call', status: 'failed', output: null });
    expect((second.output[0] as Json).error).toContain('refused');
    expect(second.output_text).toContain('Tool said: The user refused');
  });

  it('records tool failures for the model: an error, a timeout, an output cut at the cap', async () => {
    const big = await client().responses.create({
      model: 'svc-large-3',
      input: 'call big {"chars": 10000000}',
      tools: [{ type: 'mcp', server_label: 'fixture', require_approval: 'never' }],
    });
    const call = big.output[1] as Json;
    expect(call.status).toBe('completed');
    expect(call.output.length).toBeLessThan(1300);
    expect(call.output).toContain('The result was cut: it had 10000000 characters');

    const slow = await client().responses.create({
      model: 'svc-large-3',
      input: 'call trigger-long-running-operation {"duration": 5, "steps": 2}',
      tools: [{ type: 'mcp', server_label: 'slow', require_approval: 'never' }],
    });
    expect(slow.output[1]).toMatchObject({ type: 'mcp_call', status: 'failed', output: null });
    expect((slow.output[1] as Json).error).toMatch(/timed out|took longer/);

    const wrong = await client().responses.create({
      model: 'svc-large-3',
      input: 'please get-sum {"a": "not a number"}',
      tools: [everything],
    });
    expect(wrong.output[1]).toMatchObject({ type: 'mcp_call', status: 'failed' });
    expect(wrong.status).toBe('completed');
  });

  it('a server that dies during a call is a failed call the model is told about', async () => {
    const stream = await client().responses.create({
      model: 'svc-large-3',
      input: 'trigger-long-running-operation {"duration": 30, "steps": 1}',
      tools: [{ type: 'mcp', server_label: 'crashy', require_approval: 'never' }],
      stream: true,
    });
    let final: Json;
    for await (const event of stream) {
      if (event.type === 'response.mcp_call.in_progress')
        for (const pid of processesWith(CRASHY)) process.kill(pid, 'SIGKILL');
      if (event.type === 'response.completed') final = event.response;
    }
    expect(final!.output[1]).toMatchObject({ type: 'mcp_call', status: 'failed', output: null });
    expect(final!.output[1].error).toContain('SIGKILL');
    expect(final!.output[2].content[0].text).toContain('Tool said:');
  });

  it('offers no tool at the last step the step limit allows, so the model answers there', async () => {
    const before = modelCalls().length;
    const response = await client().responses.create({
      model: 'svc-large-3',
      input: 'repeat echo {"message": "again"}',
      tools: [everything],
    });
    expect(response.status).toBe('completed');
    expect(response.incomplete_details).toBeNull();
    expect(response.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'mcp_call', 'message']);
    const steps = modelCalls().slice(before);
    expect(steps.map((step) => (step.body as Json).tools?.length ?? 0)).toEqual([
      expect.any(Number),
      expect.any(Number),
      0,
    ]);
    expect((steps[0]!.body as Json).tools.length).toBeGreaterThan(0);
  });

  it('runs at most max_tool_calls calls: the ones past it are not run and the model is told, then offered no tool', async () => {
    const before = modelCalls().length;
    const response = await client().responses.create({
      model: 'svc-large-3',
      input: 'repeat echo twice {"message": "budget"}',
      tools: [everything],
      // In OpenAI's API reference and the SDK's beta and WebSocket create params, not yet in its HTTP create params' type.
      ...({ max_tool_calls: 1 } as object),
    });
    expect(response.status).toBe('completed');
    expect((response as Json).max_tool_calls).toBe(1);
    const calls = response.output.filter((item) => item.type === 'mcp_call') as Json[];
    expect(calls.map((call) => call.status)).toEqual(['completed', 'failed']);
    expect(calls[0].output).toBe('Echo: budget');
    expect(calls[1].error).toContain('max_tool_calls');
    const steps = modelCalls().slice(before);
    expect(steps).toHaveLength(2);
    expect((steps[1]!.body as Json).tools).toBeUndefined();
    expect((steps[1]!.body as Json).messages.at(-1).content).toContain('Not run');
    expect(response.output.at(-1)!.type).toBe('message');
  });

  it('refuses a max_tool_calls below 1 in the error shape', async () => {
    const attempt = client().responses.create({
      model: 'svc-large-3',
      input: 'echo {"message": "x"}',
      tools: [everything],
      ...({ max_tool_calls: 0 } as object),
    });
    await expect(attempt).rejects.toMatchObject({
      status: expect.any(Number),
      error: expect.objectContaining({ param: expect.stringContaining('max_tool_calls') }),
    });
  });

  it('refuses clearly: an unknown server, a key the server does not allow, a server that cannot start', async () => {
    const created = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } }),
    );
    for (const [key, label] of [
      [ADMIN_KEY, 'nope'],
      [created.key as string, 'private'],
    ] as const) {
      const attempt = client(key).responses.create({
        model: 'svc-large-3',
        input: 'hi',
        tools: [{ type: 'mcp', server_label: label }],
      });
      await expect(attempt).rejects.toMatchObject({ status: 404, code: 'mcp_server_not_found' });
    }
    const refused = client().responses.create({
      model: 'svc-large-3',
      input: 'hi',
      tools: [{ type: 'mcp', server_label: 'mine', server_url: 'http://127.0.0.1:9/mcp' }],
    });
    await expect(refused).rejects.toMatchObject({ status: 502, code: 'mcp_server_unavailable' });
  });

  it('a client that disconnects during a call cancels it, and no further model call is made', async () => {
    const before = modelCalls().length;
    const controller = new AbortController();
    const response = await gateway.request('/v1/responses', {
      method: 'POST',
      json: {
        model: 'svc-large-3',
        input: 'trigger-long-running-operation {"duration": 20, "steps": 2}',
        tools: [everything],
        stream: true,
      },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('response.mcp_call.in_progress'))
      text += new TextDecoder().decode((await reader.read()).value);
    const startedAt = Date.now();
    controller.abort();
    await expect
      .poll(async () => {
        const log = await json(await gateway.request('/console/requests?limit=1'));
        if (log.data[0]?.path !== '/v1/responses') return undefined;
        const entry = await json(await gateway.request(`/console/requests/${log.data[0].id}`));
        return entry.spans.find((span: Json) => span.name === 'execute_tool trigger-long-running-operation')
          ?.attributes['switchyard.mcp.outcome'];
      })
      .toBe('cancelled');
    expect(Date.now() - startedAt).toBeLessThan(5000);
    expect(modelCalls().length - before).toBe(1);
  });

  it('reaches a server_url for this request only', async () => {
    const { url } = await useEverythingHttp();
    const response = await client().responses.create({
      model: 'svc-large-3',
      input: 'please echo {"message": "over http"}',
      tools: [{ type: 'mcp', server_label: 'remote', server_url: url, require_approval: 'never' }],
    });
    expect(response.output[1]).toMatchObject({ server_label: 'remote', output: 'Echo: over http' });
    expect(response.tools[0]).not.toHaveProperty('headers');
  });
});
