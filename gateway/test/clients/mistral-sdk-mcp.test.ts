import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mistral } from '@mistralai/mistralai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../support/collect.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { filesystemStdio } from '../support/mcp-servers.js';
import { ADMIN_KEY, startGateway, type Json, type TestGateway } from '../support/start-gateway.js';
import { upstreamConfig } from '../support/upstream-config.js';

let upstream: FakeUpstream;
let gateway: TestGateway;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchyard-mcp-files-'));
  writeFileSync(join(folder, 'note.txt'), 'the note says 42');
  upstream = await startFakeUpstream({ toolLoop: true });
  gateway = await startGateway({ config: { ...upstreamConfig(upstream), mcp_servers: [filesystemStdio(folder)] } });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  rmSync(folder, { recursive: true, force: true });
});

const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });
const filesConnector = {
  type: 'connector' as const,
  connectorId: 'files',
  toolConfiguration: { include: ['read_text_file', 'write_file'] },
};
const ask = (tool: string, args: Record<string, unknown>) => `${tool} ${JSON.stringify(args)}`;

async function filesAgent(): Promise<string> {
  const agent = await client().beta.agents.create({ name: 'Files', model: 'svc-large-3', tools: [filesConnector] });
  expect(agent.tools).toEqual([filesConnector]);
  return agent.id;
}

describe('the @mistralai/mistralai SDK: an agent with an MCP connector in a conversation', () => {
  it('runs the call on the server, stores it as a tool.execution entry, and the model answers from it', async () => {
    const agentId = await filesAgent();
    const path = join(folder, 'note.txt');
    const turn = await client().beta.conversations.start({ agentId, inputs: ask('read_text_file', { path }) });
    expect(turn.outputs.map((entry) => entry.type)).toEqual(['tool.execution', 'message.output']);
    const [execution, message] = turn.outputs as Json[];
    expect(execution).toMatchObject({
      name: 'read_text_file',
      arguments: JSON.stringify({ path }),
      info: { server: 'files', outcome: 'ok', is_error: false, output: 'the note says 42' },
    });
    expect(message.content).toBe('Tool said: the note says 42');
    // The model was offered only the included tools, and read the call back with its result.
    const calls = upstream.requests.filter((request) => request.path === '/v1/chat/completions').slice(-2);
    expect((calls[0]!.body as Json).tools.map((tool: Json) => tool.function.name)).toEqual([
      'read_text_file',
      'write_file',
    ]);
    expect((calls[1]!.body as Json).messages.at(-1)).toMatchObject({ role: 'tool', content: 'the note says 42' });
    const history = await client().beta.conversations.getHistory({ conversationId: turn.conversationId });
    expect(history.entries.map((entry) => entry.type)).toEqual(['message.input', 'tool.execution', 'message.output']);
  });

  it('streams tool.execution.started and .done between the model output events', async () => {
    const agentId = await filesAgent();
    const events = await collect(
      await client().beta.conversations.startStream({
        agentId,
        inputs: ask('read_text_file', { path: join(folder, 'note.txt') }),
      }),
    );
    const types = events.map((event) => event.data.type);
    expect(types[0]).toBe('conversation.response.started');
    expect(types.slice(1, 3)).toEqual(['tool.execution.started', 'tool.execution.done']);
    expect(types.slice(3, -1).every((type) => type === 'message.output.delta')).toBe(true);
    expect(types.at(-1)).toBe('conversation.response.done');
    const done = events[2]!.data as Json;
    expect(done).toMatchObject({ name: 'read_text_file', info: { output: 'the note says 42' } });
  });

  it('a tool that is not read-only waits for confirmation; tool_confirmations allow runs it', async () => {
    const agentId = await filesAgent();
    const path = join(folder, 'written.txt');
    const first = await client().beta.conversations.start({
      agentId,
      inputs: ask('write_file', { path, content: 'confirmed' }),
    });
    expect(first.outputs).toHaveLength(1);
    const pending = first.outputs[0] as Json;
    expect(pending).toMatchObject({ type: 'function.call', name: 'write_file', confirmationStatus: 'pending' });
    expect(() => readFileSync(path)).toThrow();

    const second = await client().beta.conversations.append({
      conversationId: first.conversationId,
      conversationAppendRequest: { toolConfirmations: [{ toolCallId: pending.toolCallId, confirmation: 'allow' }] },
    });
    expect(second.outputs.map((entry) => entry.type)).toEqual(['tool.execution', 'message.output']);
    expect(readFileSync(path, 'utf8')).toBe('confirmed');
    const history = await client().beta.conversations.getHistory({ conversationId: first.conversationId });
    expect(history.entries.find((entry) => entry.type === 'function.call')).toMatchObject({
      confirmationStatus: 'allowed',
    });

    const denied = await client().beta.conversations.start({
      agentId,
      inputs: ask('write_file', { path: join(folder, 'denied.txt'), content: 'no' }),
    });
    const refused = await client().beta.conversations.append({
      conversationId: denied.conversationId,
      conversationAppendRequest: {
        toolConfirmations: [{ toolCallId: (denied.outputs[0] as Json).toolCallId, confirmation: 'deny' }],
      },
    });
    expect((refused.outputs[0] as Json).info).toMatchObject({ outcome: 'refused', is_error: true });
    expect(() => readFileSync(join(folder, 'denied.txt'))).toThrow();
  });

  it('refuses a connector to a server the key may not use, and a malformed connector', async () => {
    const created = await (
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } })
    ).json();
    const member = new Mistral({ apiKey: (created as Json).key, serverURL: gateway.url });
    await expect(
      member.beta.conversations.start({ model: 'svc-large-3', inputs: 'hi', tools: [filesConnector] }),
    ).rejects.toMatchObject({ statusCode: 404 });
    const malformed = await gateway.request('/v1/agents', {
      method: 'POST',
      json: { name: 'x', model: 'svc-large-3', tools: [{ type: 'connector', connector_id: 'bad id!' }] },
    });
    expect(malformed.status).toBe(422);
  });
});
