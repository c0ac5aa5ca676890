import { Mistral } from '@mistralai/mistralai';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/collect.js';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();
const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: stack.gateway.url });
const lookup = {
  type: 'function' as const,
  function: {
    name: 'lookup_order',
    description: 'Find an order',
    parameters: { type: 'object', properties: { input: { type: 'string' } } },
  },
};

describe('the official @mistralai/mistralai SDK: agents and conversations', () => {
  it('beta.agents: create, get, list, update makes a version, versions, delete', async () => {
    const agent = await client().beta.agents.create({
      name: 'Support',
      model: 'svc-large-3',
      instructions: 'Answer briefly.',
      tools: [lookup],
    });
    expect(agent).toMatchObject({
      object: 'agent',
      name: 'Support',
      model: 'svc-large-3',
      version: 0,
      versions: [0],
      tools: [lookup],
    });
    expect(agent.createdAt).toBeInstanceOf(Date);
    expect(await client().beta.agents.get({ agentId: agent.id })).toMatchObject({ id: agent.id, version: 0 });
    expect((await client().beta.agents.list({})).map((entry) => entry.id)).toContain(agent.id);

    const updated = await client().beta.agents.update({
      agentId: agent.id,
      updateAgentRequest: { instructions: 'Answer in one word.' },
    });
    expect(updated).toMatchObject({
      version: 1,
      versions: [0, 1],
      instructions: 'Answer in one word.',
      name: 'Support',
    });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(updated.createdAt.getTime());
    const versions = await client().beta.agents.listVersions({ agentId: agent.id });
    expect(versions.map((version) => [version.version, version.instructions])).toEqual([
      [1, 'Answer in one word.'],
      [0, 'Answer briefly.'],
    ]);
    expect(await client().beta.agents.getVersion({ agentId: agent.id, version: '0' })).toMatchObject({
      version: 0,
      instructions: 'Answer briefly.',
    });
    await expect(client().beta.agents.getVersion({ agentId: agent.id, version: '7' })).rejects.toMatchObject({
      statusCode: 404,
    });

    expect(await client().beta.agents.get({ agentId: agent.id, agentVersion: 0 })).toMatchObject({
      version: 0,
      instructions: 'Answer briefly.',
    });
    expect(await client().beta.agents.get({ agentId: agent.id, agentVersion: '1' })).toMatchObject({
      version: 1,
      instructions: 'Answer in one word.',
    });

    const answer = await client().agents.complete({
      agentId: agent.id,
      messages: [{ role: 'user', content: 'one word' }],
    });
    expect(answer.choices[0]?.message?.content).toBe('one word');
    expect((stack.upstream.requests.at(-1)!.body as { messages: unknown[] }).messages[0]).toEqual({
      role: 'system',
      content: 'Answer in one word.',
    });

    const streamed = await collect(
      await client().agents.stream({
        agentId: agent.id,
        messages: [{ role: 'user', content: 'streamed agent words' }],
      }),
    );
    expect(streamed.map((event) => event.data.choices[0]?.delta.content ?? '').join('')).toBe('streamed agent words');
    expect((stack.upstream.requests.at(-1)!.body as { messages: unknown[] }).messages[0]).toEqual({
      role: 'system',
      content: 'Answer in one word.',
    });

    await client().beta.agents.delete({ agentId: agent.id });
    await expect(client().beta.agents.get({ agentId: agent.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('version aliases and switching the active version: stored, followed by get, conversations and the agent, refused for versions that do not exist', async () => {
    const agent = await client().beta.agents.create({ name: 'Aliased', model: 'svc-large-3', instructions: 'v0' });
    await client().beta.agents.update({ agentId: agent.id, updateAgentRequest: { instructions: 'v1' } });
    expect(await client().beta.agents.listVersionAliases({ agentId: agent.id })).toEqual([]);
    const prod = await client().beta.agents.createVersionAlias({ agentId: agent.id, alias: 'prod', version: 0 });
    expect(prod).toMatchObject({ alias: 'prod', version: 0 });
    expect(prod.createdAt).toBeInstanceOf(Date);
    await client().beta.agents.createVersionAlias({ agentId: agent.id, alias: 'next', version: 1 });
    expect(
      (await client().beta.agents.listVersionAliases({ agentId: agent.id })).map((alias) => [
        alias.alias,
        alias.version,
      ]),
    ).toEqual([
      ['next', 1],
      ['prod', 0],
    ]);
    expect(await client().beta.agents.get({ agentId: agent.id, agentVersion: 'prod' })).toMatchObject({
      version: 0,
      instructions: 'v0',
      versions: [0, 1],
    });
    const started = await client().beta.conversations.start({ agentId: agent.id, agentVersion: 'prod', inputs: 'hi' });
    expect(
      (await client().beta.conversations.get({ conversationId: started.conversationId })) as unknown,
    ).toMatchObject({ agentVersion: 0 });
    // Moving an alias; versions and aliases that do not exist.
    expect(
      await client().beta.agents.createVersionAlias({ agentId: agent.id, alias: 'prod', version: 1 }),
    ).toMatchObject({ alias: 'prod', version: 1 });
    await expect(
      client().beta.agents.createVersionAlias({ agentId: agent.id, alias: 'prod', version: 9 }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(client().beta.agents.get({ agentId: agent.id, agentVersion: 'missing' })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      client().beta.conversations.start({ agentId: agent.id, agentVersion: 'missing', inputs: 'hi' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await client().beta.agents.deleteVersionAlias({ agentId: agent.id, alias: 'next' });
    await expect(client().beta.agents.deleteVersionAlias({ agentId: agent.id, alias: 'next' })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await client().beta.agents.listVersionAliases({ agentId: agent.id })).map((alias) => alias.alias)).toEqual([
      'prod',
    ]);

    // Switching back to version 0: served when no version is named, until the next update.
    expect(await client().beta.agents.updateVersion({ agentId: agent.id, version: 0 })).toMatchObject({
      version: 0,
      instructions: 'v0',
      versions: [0, 1],
    });
    expect(await client().beta.agents.get({ agentId: agent.id })).toMatchObject({ version: 0, instructions: 'v0' });
    expect((await client().beta.agents.list({})).find((listed) => listed.id === agent.id)).toMatchObject({
      version: 0,
      instructions: 'v0',
    });
    await expect(client().beta.agents.updateVersion({ agentId: agent.id, version: 5 })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(
      await client().beta.agents.update({ agentId: agent.id, updateAgentRequest: { instructions: 'v2' } }),
    ).toMatchObject({ version: 2, instructions: 'v2', versions: [0, 1, 2] });
    expect(await client().beta.agents.get({ agentId: agent.id })).toMatchObject({ version: 2, instructions: 'v2' });
    await expect(client().beta.agents.listVersionAliases({ agentId: 'ag_missing' })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("beta.conversations.start passes completionArgs' penalties on as chat parameters", async () => {
    await client().beta.conversations.start({
      model: 'svc-large-3',
      inputs: 'hi',
      store: false,
      completionArgs: { presencePenalty: 0.4, frequencyPenalty: -0.3 },
    });
    expect(stack.upstream.requests.at(-1)!.body).toMatchObject({ presence_penalty: 0.4, frequency_penalty: -0.3 });
  });

  it('beta.agents keeps completionArgs, refuses values chat refuses with a 422 naming the field, and conversations use them', async () => {
    for (const completionArgs of [
      { temperature: 2.5 },
      { topP: 2 },
      { maxTokens: 0 },
      { presencePenalty: 3 },
      { frequencyPenalty: -3 },
    ]) {
      const refused = client().beta.agents.create({ name: 'Out of range', model: 'svc-large-3', completionArgs });
      await expect(refused).rejects.toMatchObject({ statusCode: 422 });
      const field = Object.keys(completionArgs)[0]!.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      await expect(refused).rejects.toThrow(`completion_args.${field}`);
    }
    expect((await client().beta.agents.list({})).map((agent) => agent.name)).not.toContain('Out of range');

    const agent = await client().beta.agents.create({
      name: 'Careful',
      model: 'svc-large-3',
      completionArgs: { temperature: 0.2, maxTokens: 30 },
    });
    expect(agent.completionArgs).toMatchObject({ temperature: 0.2, maxTokens: 30 });
    const refusedUpdate = client().beta.agents.update({
      agentId: agent.id,
      updateAgentRequest: { completionArgs: { temperature: 7 } },
    });
    await expect(refusedUpdate).rejects.toMatchObject({ statusCode: 422 });
    await expect(refusedUpdate).rejects.toThrow('completion_args.temperature');
    expect((await client().beta.agents.get({ agentId: agent.id })).version).toBe(0);

    await client().beta.conversations.start({ agentId: agent.id, inputs: 'hi', store: false });
    expect(stack.upstream.requests.at(-1)!.body).toMatchObject({ temperature: 0.2, max_tokens: 30 });
  });

  it('beta.agents.create refuses built-in tools with a clear 422 instead of storing them', async () => {
    for (const tool of [
      { type: 'web_search' as const },
      { type: 'code_interpreter' as const },
      { type: 'image_generation' as const },
      { type: 'document_library' as const, libraryIds: ['lib'] },
    ]) {
      const refused = client().beta.agents.create({ name: 'Researcher', model: 'svc-large-3', tools: [tool] });
      await expect(refused).rejects.toMatchObject({ statusCode: 422 });
      await expect(refused).rejects.toThrow(new RegExp(`Built-in tool \\W*${tool.type}\\W* is not available`));
    }
    expect((await client().beta.agents.list({})).map((agent) => agent.name)).not.toContain('Researcher');
  });

  it('beta.conversations with an agent: start, append, get, list, history, messages, restart, delete', async () => {
    const agent = await client().beta.agents.create({
      name: 'Echo',
      model: 'svc-large-3',
      instructions: 'Be an echo.',
    });
    const started = await client().beta.conversations.start({ agentId: agent.id, inputs: 'hello there' });
    expect(started.object).toBe('conversation.response');
    expect(started.outputs).toHaveLength(1);
    expect(started.outputs[0]).toMatchObject({
      type: 'message.output',
      role: 'assistant',
      content: 'hello there',
      agentId: agent.id,
    });
    expect(started.usage.totalTokens).toBeGreaterThan(0);
    const sent = stack.upstream.requests.at(-1)!.body as { messages: unknown[] };
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be an echo.' },
      { role: 'user', content: 'hello there' },
    ]);

    const appended = await client().beta.conversations.append({
      conversationId: started.conversationId,
      conversationAppendRequest: { inputs: 'second turn' },
    });
    expect(appended.outputs[0]).toMatchObject({ type: 'message.output', content: 'second turn' });
    expect((stack.upstream.requests.at(-1)!.body as { messages: unknown[] }).messages).toHaveLength(4);

    expect(await client().beta.conversations.get({ conversationId: started.conversationId })).toMatchObject({
      id: started.conversationId,
      agentId: agent.id,
      agentVersion: 0,
    });
    expect((await client().beta.conversations.list({})).map((conversation) => conversation.id)).toContain(
      started.conversationId,
    );
    const history = await client().beta.conversations.getHistory({ conversationId: started.conversationId });
    expect(history.entries.map((entry) => entry.type)).toEqual([
      'message.input',
      'message.output',
      'message.input',
      'message.output',
    ]);
    const messages = await client().beta.conversations.getMessages({ conversationId: started.conversationId });
    expect(messages.messages.map((entry) => entry.content)).toEqual([
      'hello there',
      'hello there',
      'second turn',
      'second turn',
    ]);

    // Restart from the first answer: a new conversation with that history and the new input.
    const restarted = await client().beta.conversations.restart({
      conversationId: started.conversationId,
      conversationRestartRequest: { fromEntryId: history.entries[1]!.id!, inputs: 'another branch' },
    });
    expect(restarted.conversationId).not.toBe(started.conversationId);
    const branch = await client().beta.conversations.getHistory({ conversationId: restarted.conversationId });
    expect(branch.entries.map((entry) => ('content' in entry ? entry.content : entry.type))).toEqual([
      'hello there',
      'hello there',
      'another branch',
      'another branch',
    ]);

    await client().beta.conversations.delete({ conversationId: started.conversationId });
    await expect(client().beta.conversations.get({ conversationId: started.conversationId })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('beta.conversations with a model and a function tool: the call comes back as function.call, its result is sent as function.result', async () => {
    const started = await client().beta.conversations.start({
      model: 'svc-large-3',
      inputs: 'please lookup_order 42',
      tools: [lookup],
      store: true,
    });
    const call = started.outputs.find((entry) => entry.type === 'function.call');
    expect(call).toMatchObject({
      type: 'function.call',
      name: 'lookup_order',
      arguments: JSON.stringify({ input: 'please lookup_order 42' }),
    });
    const toolCallId = call && 'toolCallId' in call ? call.toolCallId : '';
    await client().beta.conversations.append({
      conversationId: started.conversationId,
      conversationAppendRequest: { inputs: [{ type: 'function.result', toolCallId, result: '{"status":"shipped"}' }] },
    });
    const sent = stack.upstream.requests.at(-1)!.body as { messages: Record<string, unknown>[] };
    expect(sent.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: toolCallId, function: { name: 'lookup_order' } }],
    });
    expect(sent.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: toolCallId, content: '{"status":"shipped"}' });
    expect(await client().beta.conversations.get({ conversationId: started.conversationId })).toMatchObject({
      model: 'svc-large-3',
      tools: [lookup],
    });

    const refused = client().beta.conversations.start({
      model: 'svc-large-3',
      inputs: 'search',
      tools: [{ type: 'web_search' }],
    });
    await expect(refused).rejects.toMatchObject({ statusCode: 422 });
    await expect(client().beta.conversations.start({ model: 'nope', inputs: 'hi' })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('beta.conversations.startStream with an agent: started, message.output.delta pieces, done with usage; stored like start', async () => {
    const agent = await client().beta.agents.create({
      name: 'Streamer',
      model: 'svc-large-3',
      instructions: 'Stream it.',
    });
    const events = await collect(
      await client().beta.conversations.startStream({ agentId: agent.id, inputs: 'streamed words come back' }),
    );
    const [first, ...rest] = events.map((event) => event.data);
    expect(first).toMatchObject({
      type: 'conversation.response.started',
      conversationId: expect.stringMatching(/^conv_/),
    });
    const conversationId = first!.type === 'conversation.response.started' ? first!.conversationId : '';
    expect(first!.type === 'conversation.response.started' && first!.createdAt).toBeInstanceOf(Date);
    const done = rest.pop()!;
    expect(done).toMatchObject({
      type: 'conversation.response.done',
      usage: { promptTokens: expect.any(Number), completionTokens: 4 },
    });
    const deltas = rest.filter((event) => event.type === 'message.output.delta');
    expect(deltas).toHaveLength(rest.length);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((delta) => delta.content).join('')).toBe('streamed words come back');
    expect(new Set(deltas.map((delta) => delta.id)).size).toBe(1);
    expect(deltas[0]).toMatchObject({
      outputIndex: 0,
      contentIndex: 0,
      role: 'assistant',
      agentId: agent.id,
      model: 'svc-large-3',
    });
    expect(events.map((event) => event.event)).toEqual(events.map((event) => event.data.type));
    expect((stack.upstream.requests.at(-1)!.body as { messages: unknown[] }).messages[0]).toEqual({
      role: 'system',
      content: 'Stream it.',
    });

    const history = await client().beta.conversations.getHistory({ conversationId });
    expect(history.entries.map((entry) => [entry.type, 'content' in entry ? entry.content : null])).toEqual([
      ['message.input', 'streamed words come back'],
      ['message.output', 'streamed words come back'],
    ]);
    expect(history.entries[1]!.id).toBe(deltas[0]!.id);

    const appended = await collect(
      await client().beta.conversations.appendStream({
        conversationId,
        conversationAppendStreamRequest: { inputs: 'and more words' },
      }),
    );
    expect(appended[0]!.data).toMatchObject({ type: 'conversation.response.started', conversationId });
    expect(
      appended.flatMap((event) => (event.data.type === 'message.output.delta' ? [event.data.content] : [])).join(''),
    ).toBe('and more words');
    expect((await client().beta.conversations.getHistory({ conversationId })).entries).toHaveLength(4);

    const restarted = await collect(
      await client().beta.conversations.restartStream({
        conversationId,
        conversationRestartStreamRequest: { fromEntryId: history.entries[1]!.id!, inputs: 'a new branch' },
      }),
    );
    const branchId =
      restarted[0]!.data.type === 'conversation.response.started' ? restarted[0]!.data.conversationId : '';
    expect(branchId).not.toBe(conversationId);
    const branch = await client().beta.conversations.getHistory({ conversationId: branchId });
    expect(branch.entries.map((entry) => ('content' in entry ? entry.content : entry.type))).toEqual([
      'streamed words come back',
      'streamed words come back',
      'a new branch',
      'a new branch',
    ]);
  });

  it('a streamed function call comes as function.call.delta pieces of one entry; its result is appended and streamed on', async () => {
    const events = await collect(
      await client().beta.conversations.startStream({
        model: 'svc-large-3',
        inputs: 'stream lookup_order 9',
        tools: [lookup],
      }),
    );
    const calls = events.flatMap((event) => (event.data.type === 'function.call.delta' ? [event.data] : []));
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls.map((call) => call.id)).size).toBe(1);
    expect(calls[0]).toMatchObject({ name: 'lookup_order', toolCallId: expect.any(String) });
    expect(calls.map((call) => call.arguments).join('')).toBe(JSON.stringify({ input: 'stream lookup_order 9' }));
    expect(events.at(-1)!.data.type).toBe('conversation.response.done');
    const conversationId =
      events[0]!.data.type === 'conversation.response.started' ? events[0]!.data.conversationId : '';
    const stored = (await client().beta.conversations.getHistory({ conversationId })).entries.find(
      (entry) => entry.type === 'function.call',
    );
    expect(stored).toMatchObject({
      id: calls[0]!.id,
      name: 'lookup_order',
      toolCallId: calls[0]!.toolCallId,
      arguments: JSON.stringify({ input: 'stream lookup_order 9' }),
    });

    const next = await collect(
      await client().beta.conversations.appendStream({
        conversationId,
        conversationAppendStreamRequest: {
          inputs: [{ type: 'function.result', toolCallId: calls[0]!.toolCallId, result: 'shipped today' }],
        },
      }),
    );
    expect(next.at(-1)!.data.type).toBe('conversation.response.done');
    const sent = stack.upstream.requests.at(-1)!.body as { messages: Record<string, unknown>[]; stream: boolean };
    expect(sent.stream).toBe(true);
    expect(sent.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: calls[0]!.toolCallId,
      content: 'shipped today',
    });
  });

  it('a stream that fails after it started ends with conversation.response.error; a refused one is a plain HTTP error', async () => {
    stack.upstream.setBehaviour({ failure: { type: 'cut_mid_stream', afterFrames: 1 }, path: '/v1/chat/completions' });
    try {
      const events = await collect(
        await client().beta.conversations.startStream({ model: 'svc-large-3', inputs: 'this will be cut off' }),
      );
      expect(events[0]!.data.type).toBe('conversation.response.started');
      expect(events.at(-1)!.data).toMatchObject({
        type: 'conversation.response.error',
        message: expect.any(String),
        code: 502,
      });
    } finally {
      stack.upstream.setBehaviour(null);
    }
    await expect(client().beta.conversations.startStream({ model: 'nope', inputs: 'hi' })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      client().beta.conversations.appendStream({
        conversationId: 'conv_missing',
        conversationAppendStreamRequest: { inputs: 'hi' },
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});
