import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { McpPage } from '../../../../src/features/mcp/components/mcp-page';
import { renderPage } from '../../../support/render-page';

const SETTING = {
  id: 'files',
  transport: 'stdio',
  command: 'npx',
  args: ['-y', 'server-filesystem'],
  env_names: ['API_TOKEN'],
  header_names: [],
  allowed_keys: ['key_a'],
  timeout_ms: 60000,
  max_output_chars: 100000,
  source: 'console',
  in_config: false,
  removed: false,
};
const SERVERS = {
  object: 'list',
  data: [
    {
      id: 'files',
      transport: 'stdio',
      state: 'ready',
      tools: [
        {
          name: 'read',
          description: 'Reads a file',
          input_schema: { type: 'object', properties: { path: { type: 'string' } } },
          read_only: true,
          require_approval: 'never',
        },
      ],
    },
  ],
};

const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let calls: { url: string; method: string; body?: unknown }[] = [];

function stubGateway() {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url === '/account/me')
        return jsonResponse({ api_key: { id: 'k', prefix: 'sk-sy-ab', role: 'owner' }, balance: { amount: 1 } });
      if (url === '/settings/mcp-servers') return jsonResponse({ object: 'list', data: [SETTING] });
      if (url === '/v1/mcp/servers') return jsonResponse(SERVERS);
      if (url === '/settings/mcp-servers/files' && method === 'PUT') return jsonResponse(SETTING);
      if (url === '/v1/mcp/servers/files/tools/read/call')
        return jsonResponse({
          object: 'mcp.tool_result',
          server: 'files',
          tool: 'read',
          outcome: 'ok',
          is_error: false,
          content: [{ type: 'text', text: '<script>alert(1)</script>' }],
          duration_ms: 4,
          truncated: true,
        });
      throw new Error(`unexpected ${method} ${url}`);
    }),
  );
}

beforeEach(() => useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MCP servers page', () => {
  it('edits a server keeping a stored secret it never saw: the name is sent with an empty value', async () => {
    stubGateway();
    renderPage(<McpPage />);
    const row = await screen.findByRole('row', { name: 'files' });
    expect(row.textContent).toContain('API_TOKEN');
    expect(row.textContent).toContain('Owners and 1 key');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit files' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit MCP server files' });
    expect(within(dialog).getByRole('textbox', { name: 'Environment name 1' })).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save server' }));
    await vi.waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      command: 'npx',
      args: ['-y', 'server-filesystem'],
      env: { API_TOKEN: '' },
      allowed_keys: ['key_a'],
      timeout_ms: 60000,
      max_output_chars: 100000,
    });
  });

  it("tries a tool with its schema's arguments and shows the result as text", async () => {
    stubGateway();
    renderPage(<McpPage />);
    const row = await screen.findByRole('row', { name: 'files' });
    fireEvent.click(await within(row).findByRole('button', { name: 'Tools of files' }));
    const tool = await screen.findByRole('region', { name: 'Tool read' });
    expect(within(tool).getByRole('textbox', { name: 'Arguments (JSON)' })).toHaveProperty(
      'value',
      JSON.stringify({ path: '' }, null, 2),
    );
    fireEvent.click(within(tool).getByRole('button', { name: 'Call read' }));
    const result = await within(tool).findByTestId('tool-result');
    expect(result.textContent).toContain('<script>alert(1)</script>');
    expect(result.querySelector('script')).toBeNull();
    expect(result.textContent).toContain("cut to the server's limit");
    expect(calls.find((call) => call.url.endsWith('/call'))?.body).toEqual({ arguments: { path: '' } });
  });
});
