import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { RequestsPage } from '../../../../src/features/requests/components/requests-page';

const base = {
  method: 'POST',
  path: '/v1/chat/completions',
  latency_ms: 12,
  key_prefix: 'sk-sy-ab',
  model: 'svc-large-3',
  prompt_tokens: null,
  completion_tokens: null,
  cost: null,
  client: null,
};
const MESSAGE = `The upstream provider 'openai' answered 500: ${'the upstream is down and says so at length '.repeat(8).trim()}`;
const ENTRIES = [
  { ...base, id: 'req_bad_gateway', time: 3000, status: 502, error_code: 'upstream_error', error_message: MESSAGE },
  {
    ...base,
    id: 'req_invalid',
    time: 2000,
    status: 422,
    error_code: 'invalid_value',
    error_message: "Invalid request: 'temperature' must be <= 2.",
  },
  { ...base, id: 'req_ok', time: 1000, status: 200 },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('request log page', () => {
  it('says why each failed request failed under its status, cut with the whole on hover, and in the drawer, without bodies', async () => {
    useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/console/requests?limit=500') return reply({ object: 'list', data: ENTRIES });
        if (url === '/console/requests/req_bad_gateway') return reply(ENTRIES[0]);
        return reply(
          { object: 'error', message: 'no', type: 'not_found_error', param: null, code: 'route_not_found' },
          404,
        );
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <RequestsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const table = await screen.findByTestId('request-log');
    const rows = within(table).getAllByRole('row').slice(1);
    const badGateway = within(rows[0]).getByTitle(`upstream_error: ${MESSAGE}`);
    expect(badGateway.className).toContain('cell-text');
    expect(within(rows[1]).getByTitle("invalid_value: Invalid request: 'temperature' must be <= 2.")).toBeTruthy();
    expect(within(rows[2]).queryByTitle(/:/)).toBeNull();

    fireEvent.click(rows[0]);
    const failure = await screen.findByTestId('request-failure');
    expect(failure.textContent).toBe(`upstream_error: ${MESSAGE}`);
    expect(await screen.findByText('Not kept.')).toBeTruthy();
  });

  it('asks the gateway for the slowest first and for one trace, and shows time to first token for streams', async () => {
    useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
    const TRACE = 'AbCdEf0123456789abcdef0123456789';
    const streamed = { ...base, id: 'req_stream', time: 4000, status: 200, latency_ms: 900, ttft_ms: 87.4 };
    const asked: string[] = [];
    const reply = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        if (url === '/console/requests?limit=500') return reply({ object: 'list', data: [...ENTRIES, streamed] });
        if (url.startsWith('/console/requests?')) return reply({ object: 'list', data: [streamed] });
        return new Response('{}', { status: 404 });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <RequestsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const table = await screen.findByTestId('request-log');
    const [streamedRow, ...others] = within(table)
      .getAllByRole('row')
      .slice(1)
      .sort((a) => (a.textContent?.includes('900 ms') ? -1 : 1));
    expect(streamedRow.textContent).toContain('900 ms87 ms');
    for (const other of others) expect(other.textContent).toContain('12 ms—');

    const latency = within(table).getByRole('columnheader', { name: /Latency/ });
    fireEvent.click(within(latency).getByRole('button'));
    expect(latency.getAttribute('aria-sort')).toBe('descending');
    await waitFor(() => expect(asked).toContain('/console/requests?limit=500&sort=latency_desc&exclude_console=true'));
    fireEvent.click(within(latency).getByRole('button'));
    expect(latency.getAttribute('aria-sort')).toBe('none');

    const trace = screen.getByLabelText('Filter by trace id');
    fireEvent.change(trace, { target: { value: 'not-a-trace' } });
    expect(trace.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/A trace id is 32 hexadecimal digits/)).toBeTruthy();
    fireEvent.change(trace, { target: { value: ` ${TRACE} ` } });
    await waitFor(() =>
      expect(asked).toContain(`/console/requests?limit=500&trace_id=${TRACE.toLowerCase()}&exclude_console=true`),
    );
    await waitFor(() => expect(within(screen.getByTestId('request-log')).getAllByRole('row')).toHaveLength(2));
  });
});
