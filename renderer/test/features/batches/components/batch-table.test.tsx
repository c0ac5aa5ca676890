import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../../src/lib/session-store';
import type { Batch } from '../../../../src/features/batches/batch-types';
import { BatchTable } from '../../../../src/features/batches/components/batch-table';

const batch = (id: string, patch: Partial<Batch>): Batch =>
  ({
    id,
    object: 'batch',
    status: 'completed',
    endpoint: '/v1/chat/completions',
    input_file_id: 'file-in',
    output_file_id: null,
    error_file_id: null,
    completion_window: '24h',
    metadata: null,
    created_at: 100,
    in_progress_at: null,
    completed_at: 200,
    cancelled_at: null,
    failed_at: null,
    expires_at: 0,
    request_counts: { total: 3, completed: 3, failed: 0 },
    errors: { object: 'list', data: [] },
    ...patch,
  }) as Batch;

const REASON = "The upstream provider 'openai' answered 500: Internal error.";
const errorLine = (customId: string, message: string) =>
  JSON.stringify({
    id: `line-${customId}`,
    custom_id: customId,
    response: {
      status_code: 502,
      request_id: 'r',
      body: { object: 'error', message, type: 'api_error', param: null, code: 'upstream_error' },
    },
    error: null,
  });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('batch table', () => {
  it('shows a completed batch whose lines failed as a failure, with the count, and the reason one click away', async () => {
    useSessionStore.setState({ apiKey: 'k', baseUrl: '', source: 'web' });
    const errors = [
      errorLine('a', REASON),
      errorLine('b', REASON),
      errorLine('c', "Invalid request: 'temperature' must be <= 2."),
    ].join('\n');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/v1/files/file-err/content'
          ? new Response(errors, { status: 200 })
          : new Response('{}', { status: 404 }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <BatchTable
          batches={[
            batch('batch_all', { request_counts: { total: 3, completed: 0, failed: 3 }, error_file_id: 'file-err' }),
            batch('batch_some', {
              request_counts: { total: 3, completed: 2, failed: 1 },
              output_file_id: 'file-out',
              error_file_id: 'file-err2',
            }),
            batch('batch_ok', { output_file_id: 'file-out2' }),
          ]}
        />
      </QueryClientProvider>,
    );
    const row = (id: string) => screen.getByRole('row', { name: id });
    const status = (id: string) => within(row(id)).getByTestId('batch-status');
    expect(status('batch_all').textContent).toBe('completed, all 3 lines failed');
    expect(status('batch_all').className).toContain('badge-error');
    expect(status('batch_some').textContent).toBe('completed with 1 failed');
    expect(status('batch_some').className).toContain('badge-warn');
    expect(status('batch_ok').textContent).toBe('completed');
    expect(status('batch_ok').className).toContain('badge-ok');
    expect(within(row('batch_all')).getByTestId('batch-failed-lines').textContent).toContain('Every line failed.');
    expect(within(row('batch_some')).getByTestId('batch-failed-lines').textContent).toContain('1 of 3 lines failed.');
    expect(within(row('batch_ok')).queryByTestId('batch-failed-lines')).toBeNull();

    fireEvent.click(within(row('batch_all')).getByRole('button', { name: 'Why lines of batch_all failed' }));
    const reasons = await screen.findByTestId('batch-failure-reasons');
    expect(
      within(reasons)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`2 × ${REASON}`, "Invalid request: 'temperature' must be <= 2."]);
  });
});
