import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { UseLocalFile } from '../../../../src/components/local-models/components/use-local-file';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const LINKED = {
  name: 'tiny.gguf',
  model: 'tiny',
  kind: 'gguf',
  size_bytes: 1,
  architecture: 'llama',
  quantization: 'F32',
  context_length: 128,
  capabilities: ['chat', 'completions', 'embeddings'],
  loaded: false,
};

let posted: unknown[] = [];
let role = 'owner';
let answer: () => Response = () => json(LINKED, 201);

beforeEach(() => {
  posted = [];
  role = 'owner';
  answer = () => json(LINKED, 201);
  useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/account/me') return json({ object: 'account', api_key: { role }, balance: { currency: 'USD' } });
      if (url === '/v1/local-models/files' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        return answer();
      }
      return json({ object: 'list', data: [] });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window.switchyard;
});

const renderIt = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <UseLocalFile />
    </QueryClientProvider>,
  );

describe('use a model file on this computer', () => {
  it('web console: sends the typed path and says which model now serves it', async () => {
    renderIt();
    const input = await screen.findByPlaceholderText(/\.gguf$/);
    expect(screen.queryByRole('button', { name: 'Choose a file…' })).toBeNull();
    fireEvent.change(input, { target: { value: '  /home/me/tiny.gguf ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use this file' }));
    await screen.findByText(/Ready: served as/);
    expect(posted).toEqual([{ path: '/home/me/tiny.gguf' }]);
  });

  it("shows the gateway's refusal in one notice", async () => {
    answer = () =>
      json(
        {
          object: 'error',
          message: 'notes.gguf is not a GGUF model file (it does not start with "GGUF").',
          type: 'invalid_request_error',
          param: 'path',
          code: 'invalid_gguf',
        },
        422,
      );
    renderIt();
    fireEvent.change(await screen.findByPlaceholderText(/\.gguf$/), { target: { value: '/tmp/notes.gguf' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use this file' }));
    await screen.findByText('notes.gguf is not a GGUF model file (it does not start with "GGUF").');
  });

  it('desktop app: the system file dialog chooses the file', async () => {
    window.switchyard = {
      getApiKey: async () => 'k',
      getGatewayUrl: async () => '',
      pickModelFile: async () => '/Users/me/Models/tiny.gguf',
    };
    renderIt();
    fireEvent.click(await screen.findByRole('button', { name: 'Choose a file…' }));
    await screen.findByText(/Ready: served as/);
    expect(posted).toEqual([{ path: '/Users/me/Models/tiny.gguf' }]);
  });

  it('is not offered to a Member', async () => {
    role = 'member';
    renderIt();
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByLabelText('Use a model file on this computer')).toBeNull();
  });
});
