import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { useConversationsStore } from '../../../../src/features/chat/stores/conversations-store';
import { ChatPage } from '../../../../src/features/chat/components/chat-page';
import { chatModelList } from '../../../support/chat-model-card';
import { renderPage } from '../../../support/render-page';

const MODELS = chatModelList('svc-small');
const TOOL = {
  name: 'echo',
  description: 'Echoes',
  input_schema: { type: 'object' },
  read_only: false,
  require_approval: 'always',
};
const SERVERS = {
  object: 'list',
  data: [
    { id: 'everything', transport: 'stdio', state: 'ready', tools: [TOOL] },
    { id: 'broken', transport: 'stdio', state: 'failed', error: 'spawn nope ENOENT', tools: [] },
  ],
};
const HOSTILE = '<img src=x onerror="window.__toolInjected=1"><b>bold</b>';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A Responses stream as the gateway writes it: `event:` and `data:` per event, numbered. */
const eventStream = (events: Record<string, unknown>[]) =>
  new Response(
    events
      .map((e, i) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`)
      .join(''),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );

const response = (id: string, status = 'completed') => ({
  id,
  object: 'response',
  status,
  output: [],
  usage: { input_tokens: 12, output_tokens: 7, total_tokens: 19 },
});
const listTools = (server: string, error?: string) => ({
  type: 'response.output_item.done',
  output_index: 0,
  item: { id: `mcpl_${server}`, type: 'mcp_list_tools', server_label: server, tools: error ? [] : [TOOL], error },
});
const call = (id: string, fields: Record<string, unknown>) => ({
  id,
  type: 'mcp_call',
  server_label: 'everything',
  name: 'echo',
  arguments: '{"message":"hi"}',
  ...fields,
});
const text = (delta: string) => ({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 2, delta });

let servers: unknown = SERVERS;
let account: unknown;
let scripted: Record<string, unknown>[][] = [];
let sent: Record<string, unknown>[] = [];

beforeEach(() => {
  localStorage.clear();
  servers = SERVERS;
  account = undefined;
  scripted = [];
  sent = [];
  useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' });
  useConversationsStore.setState({ conversations: [], activeId: null });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/models') return json(MODELS);
      if (url === '/account/me') return account ? json(account) : new Response('{}', { status: 404 });
      if (url === '/v1/mcp/servers')
        return servers === 'failing'
          ? json(
              {
                object: 'error',
                message: 'No route GET /v1/mcp/servers.',
                type: 'invalid_request_error',
                code: 'not_found',
              },
              404,
            )
          : json(servers);
      if (url === '/v1/responses') {
        sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return eventStream(scripted.shift() ?? []);
      }
      throw new Error(`unexpected ${url}`);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function pickEverything() {
  fireEvent.click(await screen.findByRole('button', { name: 'Choose MCP servers…' }));
  fireEvent.click(await screen.findByRole('checkbox', { name: /everything/ }));
}

async function sendMessage(message: string) {
  const box = await screen.findByRole('textbox', { name: 'Message' });
  fireEvent.change(box, { target: { value: message } });
  fireEvent.keyDown(box, { key: 'Enter' });
}

const lastAnswer = () => useConversationsStore.getState().conversations[0].messages.at(-1)!;

describe('chat playground with MCP servers', () => {
  it('lists no servers until asked, then says how to add one when none are configured', async () => {
    servers = { object: 'list', data: [] };
    renderPage(<ChatPage />);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(vi.mocked(fetch).mock.calls.some(([url]) => url === '/v1/mcp/servers')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Choose MCP servers…' }));
    const empty = await screen.findByTestId('mcp-picker-empty');
    expect(within(empty).getByRole('link', { name: 'MCP servers' }).getAttribute('href')).toBe('/mcp');
  });

  it('tells a member key with no server open to it that an Owner allows keys, with no link to a page it cannot use', async () => {
    servers = { object: 'list', data: [] };
    account = { object: 'account', api_key: { role: 'member' }, balance: { currency: 'USD' } };
    renderPage(<ChatPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Choose MCP servers…' }));
    const empty = await screen.findByTestId('mcp-picker-empty');
    expect(empty.textContent).toContain('No MCP server is open to this key');
    expect(within(empty).queryByRole('link')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it("shows the gateway's error when it has no MCP list (an older gateway), without sending anything", async () => {
    servers = 'failing';
    renderPage(<ChatPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Choose MCP servers…' }));
    expect((await screen.findByRole('alert')).textContent).toContain('No route GET /v1/mcp/servers.');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('sends the picked servers as mcp tools to /v1/responses and shows a call, its output as text and a failure inline', async () => {
    renderPage(<ChatPage />);
    await pickEverything();
    expect(screen.getByText('failed')).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Ask before a tool runs' }), { target: { value: 'never' } });
    scripted.push([
      { type: 'response.created', response: response('resp_1', 'in_progress') },
      listTools('everything'),
      // As the gateway streams a call: its item opens with empty arguments that a delta then fills.
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: call('mcp_1', { status: 'in_progress', arguments: '', output: null, error: null }),
      },
      { type: 'response.mcp_call_arguments.delta', item_id: 'mcp_1', output_index: 1, delta: '{"message":"hi"}' },
      { type: 'response.mcp_call_arguments.done', item_id: 'mcp_1', output_index: 1, arguments: '{"message":"hi"}' },
      { type: 'response.mcp_call.in_progress', item_id: 'mcp_1', output_index: 1 },
      { type: 'response.mcp_call.completed', item_id: 'mcp_1', output_index: 1 },
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: call('mcp_1', { status: 'completed', output: `Echo: ${HOSTILE}`, error: null }),
      },
      {
        type: 'response.output_item.done',
        output_index: 2,
        item: call('mcp_2', {
          name: 'crash',
          status: 'failed',
          output: null,
          error: 'The server died during the call',
        }),
      },
      text('The tool said '),
      text('hi.'),
      { type: 'response.completed', response: response('resp_1') },
    ]);
    await sendMessage('Call echo');

    await waitFor(() => expect(lastAnswer().status).toBe('done'));
    expect(sent[0]).toMatchObject({
      model: 'svc-small',
      stream: true,
      input: [{ role: 'user', content: 'Call echo' }],
      tools: [{ type: 'mcp', server_label: 'everything', require_approval: 'never' }],
    });
    const answer = screen.getByRole('article', { name: 'Assistant' });
    expect(answer.textContent).toContain('The tool said hi.');
    const echo = within(answer).getByRole('group', { name: 'Tool call echo' });
    expect(echo.tagName).toBe('DETAILS');
    expect(echo.textContent).toContain('everything · echo');
    expect(echo.textContent).toContain('done');
    expect(within(echo).getByLabelText('Arguments').textContent).toBe('{\n  "message": "hi"\n}');
    expect(within(echo).getByLabelText('Output').textContent).toBe(`Echo: ${HOSTILE}`);
    expect(answer.querySelector('img, b')).toBeNull();
    expect((window as { __toolInjected?: number }).__toolInjected).toBeUndefined();
    const crash = within(answer).getByRole('group', { name: 'Tool call crash' });
    expect(crash.textContent).toContain('failed');
    expect(within(crash).getByLabelText('Error').textContent).toBe('The server died during the call');
    expect(lastAnswer()).toMatchObject({ responseId: 'resp_1', stats: { promptTokens: 12, completionTokens: 7 } });
    expect(lastAnswer().tools?.[0]).toMatchObject({ state: 'completed', durationMs: expect.any(Number) });

    // The next turn tells the model which calls the last answer made and what they returned.
    scripted.push([{ type: 'response.completed', response: response('resp_2') }]);
    await sendMessage('And again?');
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].input).toEqual([
      { role: 'user', content: 'Call echo' },
      expect.objectContaining({ type: 'mcp_call', id: 'mcp_1', output: `Echo: ${HOSTILE}`, status: 'completed' }),
      expect.objectContaining({ type: 'mcp_call', id: 'mcp_2', error: 'The server died during the call' }),
      { role: 'assistant', content: 'The tool said hi.' },
      { role: 'user', content: 'And again?' },
    ]);
  });

  it('asks before a call runs, then sends the approval with previous_response_id and shows the result in place', async () => {
    renderPage(<ChatPage />);
    await pickEverything();
    const approval = { id: 'mcpr_1', type: 'mcp_approval_request', server_label: 'everything', name: 'echo' };
    scripted.push([
      { type: 'response.created', response: response('resp_1', 'in_progress') },
      listTools('everything'),
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: { ...approval, arguments: '{"message":"hi"}' },
      },
      { type: 'response.completed', response: response('resp_1') },
    ]);
    await sendMessage('Call echo');

    const prompt = await screen.findByRole('region', { name: 'Approve echo' });
    expect(prompt.textContent).toContain('The model wants to run echo on everything');
    expect(within(prompt).getByLabelText('Arguments').textContent).toContain('"message": "hi"');
    expect(sent).toHaveLength(1);

    scripted.push([
      { type: 'response.created', response: response('resp_2', 'in_progress') },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: call('mcp_1', { status: 'in_progress', arguments: '', approval_request_id: 'mcpr_1' }),
      },
      { type: 'response.mcp_call_arguments.delta', item_id: 'mcp_1', output_index: 0, delta: '{"message":"hi"}' },
      { type: 'response.mcp_call.in_progress', item_id: 'mcp_1', output_index: 0 },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: call('mcp_1', {
          arguments: '',
          status: 'completed',
          output: 'Echo: hi',
          error: null,
          approval_request_id: 'mcpr_1',
          duration_ms: 1234,
        }),
      },
      text('Done.'),
      { type: 'response.completed', response: response('resp_2') },
    ]);
    fireEvent.click(within(prompt).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(lastAnswer().responseId).toBe('resp_2'));
    expect(sent[1]).toMatchObject({
      previous_response_id: 'resp_1',
      input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true }],
      tools: [{ type: 'mcp', server_label: 'everything' }],
    });
    expect(sent[1].tools).toEqual([{ type: 'mcp', server_label: 'everything' }]);
    expect(screen.queryByRole('region', { name: 'Approve echo' })).toBeNull();
    const echo = screen.getByRole('group', { name: 'Tool call echo' });
    expect(within(echo).getByLabelText('Output').textContent).toBe('Echo: hi');
    // The arguments stay those of the approval request, and the gateway's own duration is shown.
    expect(within(echo).getByLabelText('Arguments').textContent).toBe('{\n  "message": "hi"\n}');
    expect(echo.textContent).toContain('1.23 s');
    // The approved request and its call are one entry.
    expect(lastAnswer().tools).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Assistant' }).textContent).toContain('Done.');
  });

  it('a denied call is sent as approve: false and shown as denied', async () => {
    renderPage(<ChatPage />);
    await pickEverything();
    scripted.push([
      { type: 'response.created', response: response('resp_1', 'in_progress') },
      listTools('broken', 'spawn nope ENOENT'),
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: { id: 'mcpr_9', type: 'mcp_approval_request', server_label: 'everything', name: 'echo', arguments: '{}' },
      },
      { type: 'response.completed', response: response('resp_1') },
    ]);
    await sendMessage('Call echo');
    expect((await screen.findByRole('alert')).textContent).toContain('Could not list the tools of broken');
    scripted.push([
      { type: 'response.created', response: response('resp_2', 'in_progress') },
      // The gateway writes a refused call as a failed call that never ran.
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: call('mcp_9', {
          arguments: '{}',
          status: 'failed',
          output: null,
          error: 'The user refused this call.',
          approval_request_id: 'mcpr_9',
        }),
      },
      text('As you wish.'),
      { type: 'response.completed', response: response('resp_2') },
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(lastAnswer().responseId).toBe('resp_2'));
    expect(sent[1]).toMatchObject({
      previous_response_id: 'resp_1',
      input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_9', approve: false }],
    });
    const echo = screen.getByRole('group', { name: 'Tool call echo' });
    expect(echo.textContent).toContain('denied');
    expect(echo.textContent).not.toContain('failed');
    expect(within(echo).getByLabelText('Error').textContent).toBe('The user refused this call.');
    expect(screen.getByRole('article', { name: 'Assistant' }).textContent).toContain('As you wish.');
  });

  it('a call still running when the stream fails is shown as cut off, with the gateway message', async () => {
    renderPage(<ChatPage />);
    await pickEverything();
    scripted.push([
      { type: 'response.created', response: response('resp_1', 'in_progress') },
      { type: 'response.output_item.added', output_index: 0, item: call('mcp_1', { status: 'in_progress' }) },
      { type: 'response.mcp_call.in_progress', item_id: 'mcp_1', output_index: 0 },
      { type: 'error', object: 'error', message: 'The upstream provider failed: 502', code: 'upstream_failed' },
    ]);
    await sendMessage('Call echo');
    await waitFor(() => expect(lastAnswer().status).toBe('error'));
    expect(screen.getByRole('alert').textContent).toContain('The upstream provider failed: 502');
    const echo = screen.getByRole('group', { name: 'Tool call echo' });
    expect(echo.textContent).toContain('failed');
    expect(within(echo).getByLabelText('Error').textContent).toBe('The answer failed before the call finished.');
  });
});
