import { Mistral } from '@mistralai/mistralai';
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();
const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: stack.gateway.url });
const lookup = { type: 'function' as const, function: { name: 'lookup_order', description: 'Find an order', parameters: { type: 'object', properties: { input: { type: 'string' } } } } };

describe('the official @mistralai/mistralai SDK: agents and conversations', () => {
  it('beta.agents: create, get, list, update makes a version, versions, delete', async () => {
    const agent = await client().beta.agents.create({ name: 'Support', model: 'svc-large-3', instructions: 'Answer briefly.', tools: [lookup] });
    expect(agent).toMatchObject({ object: 'agent', name: 'Support', model: 'svc-large-3', version: 0, versions: [0], tools: [lookup] });
    expect(agent.createdAt).toBeInstanceOf(Date);
    expect(await client().beta.agents.get({ agentId: agent.id })).toMatchObject({ id: agent.id, version: 0 });
    expect((await client().beta.agents.list({})).map((entry) => entry.id)).toContain(agent.id);

    const updated = await client().beta.agents.update({ agentId: agent.id, updateAgentRequest: { instructions: 'Answer in one word.' } });
    expect(updated).toMatchObject({ version: 1, versions: [0, 1], instructions: 'Answer in one word.', name: 'Support' });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(updated.createdAt.getTime());
    const versions = await client().beta.agents.listVersions({ agentId: agent.id });
    expect(versions.map((version) => [version.version, version.instructions])).toEqual([
      [1, 'Answer in one word.'],
      [0, 'Answer briefly.'],
    ]);
    expect(await client().beta.agents.getVersion({ agentId: agent.id, version: '0' })).toMatchObject({ version: 0, instructions: 'Answer briefly.' });
    await expect(client().beta.agents.getVersion({ agentId: agent.id, version: '7' })).rejects.toMatchObject({ statusCode: 404 });

    const answer = await client().agents.complete({ agentId: agent.id, messages: [{ role: 'user', content: 'one word' }] });
    expect(answer.choices[0]?.message?.content).toBe('one word');
    expect((stack.upstream.requests.at(-1)!.body as { messages: unknown[] }).messages[0]).toEqual({ role: 'system', content: 'Answer in one word.' });

    await client().beta.agents.delete({ agentId: agent.id });
    await expect(client().beta.agents.get({ agentId: agent.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('beta.agents.create refuses built-in tools with a clear 422 instead of storing them', async () => {
    for (const tool of [{ type: 'web_search' as const }, { type: 'code_interpreter' as const }, { type: 'image_generation' as const }, { type: 'document_library' as const, libraryIds: ['lib'] }]) {
      const refused = client().beta.agents.create({ name: 'Researcher', model: 'svc-large-3', tools: [tool] });
      await expect(refused).rejects.toMatchObject({ statusCode: 422 });
      await expect(refused).rejects.toThrow(new RegExp(`Built-in tool \\W*${tool.type}\\W* is not available`));
    }
    expect((await client().beta.agents.list({})).map((agent) => agent.name)).not.toContain('Researcher');
  });

  it('beta.conversations with an agent: start, append, get, list, history, messages, restart, delete', async () => {
    const agent = await client().beta.agents.create({ name: 'Echo', model: 'svc-large-3', instructions: 'Be an echo.' });
    const started = await client().beta.conversations.start({ agentId: agent.id, inputs: 'hello there' });
    expect(started.object).toBe('conversation.response');
    expect(started.outputs).toHaveLength(1);
    expect(started.outputs[0]).toMatchObject({ type: 'message.output', role: 'assistant', content: 'hello there', agentId: agent.id });
    expect(started.usage.totalTokens).toBeGreaterThan(0);
    const sent = stack.upstream.requests.at(-1)!.body as { messages: unknown[] };
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be an echo.' },
      { role: 'user', content: 'hello there' },
    ]);

    const appended = await client().beta.conversations.append({ conversationId: started.conversationId, conversationAppendRequest: { inputs: 'second turn' } });
    expect(appended.outputs[0]).toMatchObject({ type: 'message.output', content: 'second turn' });
    expect((stack.upstream.requests.at(-1)!.body as { messages: unknown[] }).messages).toHaveLength(4);

    expect(await client().beta.conversations.get({ conversationId: started.conversationId })).toMatchObject({ id: started.conversationId, agentId: agent.id, agentVersion: 0 });
    expect((await client().beta.conversations.list({})).map((conversation) => conversation.id)).toContain(started.conversationId);
    const history = await client().beta.conversations.getHistory({ conversationId: started.conversationId });
    expect(history.entries.map((entry) => entry.type)).toEqual(['message.input', 'message.output', 'message.input', 'message.output']);
    const messages = await client().beta.conversations.getMessages({ conversationId: started.conversationId });
    expect(messages.messages.map((entry) => entry.content)).toEqual(['hello there', 'hello there', 'second turn', 'second turn']);

    // Restart from the first answer: a new conversation with that history and the new input.
    const restarted = await client().beta.conversations.restart({
      conversationId: started.conversationId,
      conversationRestartRequest: { fromEntryId: history.entries[1]!.id!, inputs: 'another branch' },
    });
    expect(restarted.conversationId).not.toBe(started.conversationId);
    const branch = await client().beta.conversations.getHistory({ conversationId: restarted.conversationId });
    expect(branch.entries.map((entry) => ('content' in entry ? entry.content : entry.type))).toEqual(['hello there', 'hello there', 'another branch', 'another branch']);

    await client().beta.conversations.delete({ conversationId: started.conversationId });
    await expect(client().beta.conversations.get({ conversationId: started.conversationId })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('beta.conversations with a model and a function tool: the call comes back as function.call, its result is sent as function.result', async () => {
    const started = await client().beta.conversations.start({ model: 'svc-large-3', inputs: 'please lookup_order 42', tools: [lookup], store: true });
    const call = started.outputs.find((entry) => entry.type === 'function.call');
    expect(call).toMatchObject({ type: 'function.call', name: 'lookup_order', arguments: JSON.stringify({ input: 'please lookup_order 42' }) });
    const toolCallId = call && 'toolCallId' in call ? call.toolCallId : '';
    await client().beta.conversations.append({ conversationId: started.conversationId, conversationAppendRequest: { inputs: [{ type: 'function.result', toolCallId, result: '{"status":"shipped"}' }] } });
    const sent = stack.upstream.requests.at(-1)!.body as { messages: Record<string, unknown>[] };
    expect(sent.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: toolCallId, function: { name: 'lookup_order' } }] });
    expect(sent.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: toolCallId, content: '{"status":"shipped"}' });
    expect(await client().beta.conversations.get({ conversationId: started.conversationId })).toMatchObject({ model: 'svc-large-3', tools: [lookup] });

    const refused = client().beta.conversations.start({ model: 'svc-large-3', inputs: 'search', tools: [{ type: 'web_search' }] });
    await expect(refused).rejects.toMatchObject({ statusCode: 422 });
    await expect(client().beta.conversations.startStream({ model: 'svc-large-3', inputs: 'hi' })).rejects.toMatchObject({ statusCode: 422 });
    await expect(client().beta.conversations.start({ model: 'nope', inputs: 'hi' })).rejects.toMatchObject({ statusCode: 404 });
  });
});
