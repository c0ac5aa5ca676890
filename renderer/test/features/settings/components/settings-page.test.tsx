import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { SettingsPage } from '../../../../src/features/settings/components/settings-page';
import { renderPage } from '../../../support/render-page';

const SETTINGS = {
  providers: [
    {
      id: 'up',
      type: 'openai',
      base_url: 'https://api.example.com/v1',
      has_api_key: true,
      source: 'config',
      in_config: true,
      removed: false,
      state: 'ready',
      breaker: { state: 'closed', consecutive_failures: 0, retry_after_seconds: null },
      health: { state: 'not_tested', reason: 'no request has reached it yet' },
      routes: ['m1'],
    },
    {
      id: 'gone',
      type: 'mistral',
      has_api_key: false,
      source: 'console',
      in_config: true,
      removed: true,
      state: 'removed',
      detail: 'Removed in the console; the config file still defines it.',
      breaker: { state: 'closed', consecutive_failures: 0, retry_after_seconds: null },
      health: { state: 'unavailable', reason: 'Removed in the console; the config file still defines it.' },
      routes: [],
    },
  ],
  provider_types: ['openai', 'openai-compatible', 'mistral'],
  routes: [
    { id: 'm1', provider: 'up', upstream_model: 'gpt-x', capabilities: ['chat'], source: 'config', in_config: true },
    { id: 'm2', provider: 'up', capabilities: ['embeddings'], source: 'console', in_config: true },
  ],
  server: {
    config_path: '/etc/sy.yaml',
    data_dir: '/data',
    cors_origins: [],
    allowed_hosts: [],
    request_log_bodies: true,
    request_log_retention_days: 7,
    sources: {
      cors_origins: 'config',
      allowed_hosts: 'config',
      request_log_bodies: 'console',
      request_log_retention_days: 'config',
    },
  },
};

const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let calls: { url: string; method: string; body?: unknown }[] = [];

function stubGateway(role: 'owner' | 'member', settings: unknown = SETTINGS) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url === '/account/me')
        return jsonResponse({
          api_key: { id: 'k', prefix: 'sk-sy-ab', role },
          balance: { amount: 1, currency: 'USD' },
        });
      if (url === '/settings')
        return role === 'owner'
          ? jsonResponse(settings)
          : jsonResponse({ object: 'error', message: 'Owner only', type: 'permission_error', code: 'forbidden' }, 403);
      if (url === '/settings/providers/up/test')
        return jsonResponse({
          ok: false,
          checked: 'request',
          model: 'm1',
          capability: 'chat',
          latency_ms: 12,
          error: 'The upstream refused the provider key (401).',
        });
      if (url === '/settings/providers/up' && method === 'PUT')
        return jsonResponse({ ...SETTINGS.providers[0], source: 'console' });
      if (url === '/settings/server' && method === 'PATCH')
        return jsonResponse({
          ...SETTINGS.server,
          cors_origins: ['https://app.example'],
          sources: { ...SETTINGS.server.sources, cors_origins: 'console' },
        });
      if (url === '/settings/routes/m2/reset') return jsonResponse({ ...SETTINGS.routes[1], source: 'config' });
      throw new Error(`unexpected ${method} ${url}`);
    }),
  );
}

beforeEach(() => useSessionStore.setState({ apiKey: 'sk-test', baseUrl: '', source: 'web' }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Settings page', () => {
  it('shows the provider test result with the upstream error', async () => {
    stubGateway('owner');
    renderPage(<SettingsPage />);
    const row = await screen.findByRole('row', { name: 'up' });
    expect(row.textContent).toContain('key set');
    expect(row.textContent).not.toContain('sk-');
    // A local engine (no base URL) takes no key: it is not said to be missing one.
    expect((await screen.findByRole('row', { name: 'gone' })).textContent).not.toContain('key');
    fireEvent.click(within(row).getByRole('button', { name: 'Test up' }));
    const result = await within(row).findByTestId('provider-check');
    expect(result.textContent).toContain('Failed · chat on m1 · 12 ms');
    expect(result.textContent).toContain('refused the provider key (401)');
  });

  it('offers Reset only for a config route changed in the console, and sends it', async () => {
    stubGateway('owner');
    renderPage(<SettingsPage />);
    const edited = await screen.findByRole('row', { name: 'm2' });
    expect(edited.textContent).toContain('edited here');
    expect(within(screen.getByRole('row', { name: 'm1' })).queryByRole('button', { name: 'Reset m1' })).toBeNull();
    fireEvent.click(within(edited).getByRole('button', { name: 'Reset m2' }));
    await vi.waitFor(() =>
      expect(calls.some((c) => c.url === '/settings/routes/m2/reset' && c.method === 'POST')).toBe(true),
    );
  });

  it('the edit dialog sends the whole route with the changed capabilities', async () => {
    stubGateway('owner');
    renderPage(<SettingsPage />);
    const row = await screen.findByRole('row', { name: 'm1' });
    fireEvent.click(within(row).getByRole('button', { name: 'Edit m1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit route m1' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Completions' }));
    vi.mocked(fetch).mockImplementationOnce(async (url, init) => {
      calls.push({ url: String(url), method: init?.method ?? 'GET', body: JSON.parse(String(init?.body)) });
      return jsonResponse({ ...SETTINGS.routes[0], capabilities: ['chat', 'completions'], source: 'console' });
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save route' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toBeDefined());
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      url: '/settings/routes/m1',
      method: 'PUT',
      body: {
        provider: 'up',
        upstream_model: 'gpt-x',
        capabilities: ['chat', 'completions'],
        aliases: [],
        fallbacks: [],
      },
    });
  });

  it('an edit that leaves the API key empty does not send one, and a removed config provider offers Restore only', async () => {
    stubGateway('owner');
    renderPage(<SettingsPage />);
    const row = await screen.findByRole('row', { name: 'up' });
    fireEvent.click(within(row).getByRole('button', { name: 'Edit up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit provider up' });
    expect(within(dialog).getByLabelText('API key').getAttribute('placeholder')).toContain(
      'set · leave empty to keep it',
    );
    fireEvent.change(within(dialog).getByLabelText('Test model'), { target: { value: 'probe' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toBeDefined());
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      url: '/settings/providers/up',
      method: 'PUT',
      body: { type: 'openai', base_url: 'https://api.example.com/v1', test_model: 'probe' },
    });

    const removed = screen.getByRole('row', { name: 'gone' });
    expect(removed.textContent).toContain('removed here');
    expect(within(removed).getByRole('button', { name: 'Restore gone' })).toBeTruthy();
    expect(within(removed).queryByRole('button', { name: 'Test gone' })).toBeNull();
  });

  it('saves only the server settings that changed and shows where each comes from', async () => {
    stubGateway('owner');
    renderPage(<SettingsPage />);
    const server = await screen.findByRole('region', { name: 'Server' });
    expect(within(server).getByTestId('source-request_log_bodies').textContent).toBe('set here');
    expect(within(server).getByTestId('source-cors_origins').textContent).toBe('config file');
    expect(within(server).getByTestId('data-dir').textContent).toBe('/data');
    fireEvent.change(within(server).getByLabelText('CORS origins'), { target: { value: 'https://app.example' } });
    fireEvent.click(within(server).getByRole('button', { name: 'Save server settings' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toEqual({
        url: '/settings/server',
        method: 'PATCH',
        body: { cors_origins: ['https://app.example'] },
      }),
    );
    await within(server).findByText('Saved · applied without a restart');
  });

  it('badges what comes from no config file as built-in, not "config file"', async () => {
    stubGateway('owner', { ...SETTINGS, server: { ...SETTINGS.server, config_path: null } });
    renderPage(<SettingsPage />);
    const provider = await screen.findByRole('row', { name: 'up' });
    expect(provider.textContent).toContain('built-in');
    expect(screen.getByRole('row', { name: 'm1' }).textContent).toContain('built-in');
    const server = screen.getByRole('region', { name: 'Server' });
    expect(within(server).getByTestId('source-cors_origins').textContent).toBe('built-in');
  });

  it('badges the built-in engines and their routes built-in while a config file defines the rest', async () => {
    const builtIn = {
      ...SETTINGS.providers[0],
      id: 'local-ocr',
      type: 'tesseract',
      base_url: undefined,
      has_api_key: false,
      source: 'built_in',
      routes: ['svc-ocr-3-2512'],
    };
    const builtInRoute = {
      id: 'svc-ocr-3-2512',
      provider: 'local-ocr',
      capabilities: ['ocr'],
      source: 'built_in',
      in_config: true,
    };
    stubGateway('owner', {
      ...SETTINGS,
      providers: [...SETTINGS.providers, builtIn],
      routes: [...SETTINGS.routes, builtInRoute],
    });
    renderPage(<SettingsPage />);
    const badge = (row: string) =>
      within(screen.getByRole('row', { name: row })).getAllByText(/built-in|config file|here/)[0].textContent;
    await screen.findByRole('row', { name: 'local-ocr' });
    expect(badge('local-ocr')).toBe('built-in');
    expect(badge('svc-ocr-3-2512')).toBe('built-in');
    expect(badge('up')).toBe('config file');
    expect(badge('m1')).toBe('config file');
  });

  it('tells a Member the page is for Owners', async () => {
    stubGateway('member');
    renderPage(<SettingsPage />);
    await screen.findByTestId('owner-required');
  });
});
