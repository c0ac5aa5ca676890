import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import { MetricsPage } from '../../../../src/features/status/components/metrics-page';

const EXPOSITION = [
  '# HELP switchyard_requests_total Requests served.',
  '# TYPE switchyard_requests_total counter',
  'switchyard_requests_total{route="/v1/chat/completions",status="200"} 3',
  '# HELP switchyard_ocr_queue_waiting OCR pages waiting.',
  '# TYPE switchyard_ocr_queue_waiting gauge',
  'switchyard_ocr_queue_waiting 0',
].join('\n');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(key: string) {
  useSessionStore.setState({ apiKey: key, baseUrl: '', source: 'web' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const authorization = new Headers(init.headers).get('authorization');
      if (url !== '/metrics') return new Response('{}', { status: 404 });
      if (authorization === 'Bearer owner-key')
        return new Response(EXPOSITION, { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4' } });
      const refusal = {
        object: 'error',
        message: 'GET /metrics needs an Owner key or the metrics token.',
        type: 'permission_error',
        param: null,
        code: 'owner_only',
      };
      return new Response(JSON.stringify(refusal), { status: 403, headers: { 'content-type': 'application/json' } });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MetricsPage />
    </QueryClientProvider>,
  );
}

describe('metrics page', () => {
  it("reads /metrics with the signed-in Owner's key and filters it by metric name", async () => {
    renderPage('owner-key');
    const text = await screen.findByTestId('metrics-text');
    expect(text.textContent).toBe(EXPOSITION);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter metrics by name' }), {
      target: { value: 'OCR_queue' },
    });
    expect(screen.getByTestId('metrics-text').textContent).toBe(EXPOSITION.split('\n').slice(3).join('\n'));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter metrics by name' }), {
      target: { value: 'nothing-like-it' },
    });
    expect(screen.queryByTestId('metrics-text')).toBeNull();
    expect(screen.getByText(/No metric name contains/)).toBeTruthy();
  });

  it('says why a key that may not read them gets nothing', async () => {
    renderPage('member-key');
    expect(await screen.findByText(/needs an Owner key or the metrics token/)).toBeTruthy();
    expect(screen.queryByTestId('metrics-text')).toBeNull();
  });
});
