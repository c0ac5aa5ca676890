import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelsQueryOptions } from '../../../../src/lib/models-query';
import { useSessionStore } from '../../../../src/lib/session-store';
import { ModelsPage } from '../../../../src/features/models/components/models-page';

const MODELS = {
  object: 'list',
  data: [
    {
      id: 'svc-small',
      object: 'model',
      created: 0,
      owned_by: 'me',
      capabilities: ['chat'],
      aliases: [],
      archived: false,
      provider: 'local',
      state: 'cold',
      health: { state: 'cold' },
      fine_tuned: false,
      metadata: {},
    },
    {
      id: 'svc-transcribe',
      object: 'model',
      created: 0,
      owned_by: 'me',
      capabilities: ['transcription'],
      aliases: [],
      archived: false,
      provider: 'asr',
      state: 'unavailable',
      state_detail: 'No speech model installed: put a sherpa-onnx model in models/asr.',
      health: { state: 'unavailable', reason: 'No speech model installed: put a sherpa-onnx model in models/asr.' },
      fine_tuned: false,
      metadata: {},
    },
  ],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('models page', () => {
  it("shows each engine's state with its explanation, and no cached state while the gateway is down", async () => {
    useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
    let up = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (!up) throw new TypeError('Failed to fetch');
        if (url === '/models')
          return new Response(JSON.stringify(MODELS), { status: 200, headers: { 'content-type': 'application/json' } });
        return new Response('{}', { status: 404 });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <ModelsPage />
      </QueryClientProvider>,
    );
    await screen.findByText('No speech model installed: put a sherpa-onnx model in models/asr.');
    expect(screen.getAllByTestId('model-state').map((e) => e.textContent)).toEqual(['cold', 'unavailable']);

    up = false;
    await client.refetchQueries({ queryKey: modelsQueryOptions().queryKey });
    await screen.findByTestId('models-outdated');
    await waitFor(() =>
      expect(screen.getAllByTestId('model-state').map((e) => e.textContent)).toEqual(['unknown', 'unknown']),
    );
  });

  it("a route on an upstream that refuses connections reads unreachable with the gateway's reason (as on Status and Settings), not ready", async () => {
    useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
    const reason = 'the last test failed: connect ECONNREFUSED 127.0.0.1:9';
    const models = {
      object: 'list',
      data: [
        {
          id: 'refused-model',
          object: 'model',
          created: 0,
          owned_by: 'me',
          capabilities: ['chat'],
          aliases: [],
          archived: false,
          provider: 'refused',
          state: 'unavailable',
          state_detail: reason,
          health: { state: 'unreachable', reason },
          fine_tuned: false,
          metadata: {},
        },
      ],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/models'
          ? new Response(JSON.stringify(models), { status: 200, headers: { 'content-type': 'application/json' } })
          : new Response('{}', { status: 404 }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModelsPage />
      </QueryClientProvider>,
    );
    await screen.findByText(reason);
    expect(screen.getAllByTestId('model-state').map((e) => e.textContent)).toEqual(['unreachable']);
  });

  it('offers the catalog and a file on this computer to an Owner on the Models page too', async () => {
    useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
    const catalog = {
      object: 'list',
      data: [
        {
          id: 'tiny',
          name: 'Tiny chat (Q4)',
          repo: 'acme/tiny-GGUF',
          file: 'tiny.gguf',
          files: ['tiny.gguf'],
          revision: 'main',
          size_bytes: 1024,
          licence: 'MIT',
          ram_bytes: 2048,
          capabilities: ['chat'],
          model: 'tiny',
          description: 'A tiny one.',
        },
      ],
    };
    const answers: Record<string, unknown> = {
      '/models': { object: 'list', data: [] },
      '/account/me': { object: 'account', api_key: { role: 'owner' }, balance: { currency: 'USD' } },
      '/v1/local-models/catalog': catalog,
      '/v1/local-models/downloads': { object: 'list', data: [] },
      '/v1/local-models/files': { object: 'list', data: [] },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url in answers
          ? new Response(JSON.stringify(answers[url]), { status: 200, headers: { 'content-type': 'application/json' } })
          : new Response('{}', { status: 404 }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModelsPage />
      </QueryClientProvider>,
    );
    await screen.findByRole('heading', { name: 'Models to download' });
    expect(screen.getByText('Tiny chat (Q4)')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Use a model file on this computer' })).toBeTruthy();
  });

  it('shows the first two aliases of a long list with "+N more", all of them on hover and on click', async () => {
    useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
    const aliases = [
      'svc-large-3',
      'svc-large-latest',
      'mistral-large-latest',
      'mistral-small-latest',
      'mistral-medium-latest',
      'open-mistral-nemo',
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-3.5-turbo',
      'codestral-latest',
      'ministral-8b-latest',
    ];
    const models = {
      object: 'list',
      data: [
        { ...MODELS.data[0], id: 'svc-large-3-2512', aliases },
        { ...MODELS.data[0], id: 'svc-embed', aliases: ['one', 'two'] },
      ],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/models'
          ? new Response(JSON.stringify(models), { status: 200, headers: { 'content-type': 'application/json' } })
          : new Response('{}', { status: 404 }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ModelsPage />
      </QueryClientProvider>,
    );
    const row = await screen.findByRole('row', { name: 'svc-large-3-2512' });
    const list = within(row).getByTestId('alias-list');
    expect(list.getAttribute('title')).toBe(aliases.join(', '));
    expect(list.textContent).toBe('aka svc-large-3, svc-large-latest+11 more');
    fireEvent.click(within(list).getByRole('button', { name: '+11 more' }));
    expect(list.textContent).toBe(`aka ${aliases.join(', ')}show fewer`);
    expect(within(list).getByRole('button', { name: 'show fewer' }).getAttribute('aria-expanded')).toBe('true');
    // Two aliases fit: no button.
    const short = within(screen.getByRole('row', { name: 'svc-embed' })).getByTestId('alias-list');
    expect(short.textContent).toBe('aka one, two');
    expect(within(short).queryByRole('button')).toBeNull();
  });
});
