import { describe, expect, it } from 'vitest';
import { batchLook, batchProblem, isSettling, type Batch } from '../../../src/features/batches/batch-types';

const batch = (patch: Partial<Batch>): Batch =>
  ({
    id: 'batch_1',
    object: 'batch',
    status: 'completed',
    endpoint: '/v1/chat/completions',
    input_file_id: 'file-1',
    output_file_id: null,
    error_file_id: null,
    completion_window: '24h',
    metadata: null,
    created_at: 100,
    in_progress_at: null,
    completed_at: null,
    cancelled_at: null,
    failed_at: null,
    expires_at: 0,
    request_counts: { total: 0, completed: 0, failed: 0 },
    errors: { object: 'list', data: [] },
    ...patch,
  }) as Batch;

describe('batches in the console', () => {
  it('says why a batch failed, from the errors the API reports', () => {
    expect(
      batchProblem(
        batch({
          status: 'failed',
          errors: {
            object: 'list',
            data: [
              { line: 2, message: 'url must be /v1/chat/completions' },
              { line: 3, message: 'x' },
            ],
          },
        }),
      ),
    ).toBe('line 2: url must be /v1/chat/completions (and 1 more)');
    expect(batchProblem(batch({ status: 'failed' }))).toMatch(/failed before any line ran/);
    expect(batchProblem(batch({ status: 'completed' }))).toBeNull();
  });

  it('reads a completed batch with failed lines as a failure or a warning, with the count', () => {
    const counts = (total: number, failed: number) => ({
      request_counts: { total, completed: total - failed, failed },
    });
    expect(batchLook(batch({ ...counts(2, 2) }))).toEqual({ label: 'completed, all 2 lines failed', tone: 'error' });
    expect(batchLook(batch({ ...counts(1, 1) }))).toEqual({ label: 'completed, all 1 line failed', tone: 'error' });
    expect(batchLook(batch({ ...counts(5, 2) }))).toEqual({ label: 'completed with 2 failed', tone: 'warn' });
    expect(batchLook(batch({ ...counts(5, 0) }))).toEqual({ label: 'completed', tone: 'ok' });
    expect(batchLook(batch({ status: 'in_progress', ...counts(5, 2) }))).toEqual({
      label: 'in progress',
      tone: 'active',
    });
  });

  it('keeps watching a cancelled batch until its finished results are written', () => {
    expect(isSettling(batch({ status: 'cancelled', cancelled_at: 1000 }), 1005)).toBe(true);
    expect(isSettling(batch({ status: 'cancelled', cancelled_at: 1000, output_file_id: 'file-2' }), 1005)).toBe(false);
    expect(isSettling(batch({ status: 'cancelled', cancelled_at: 1000 }), 1100)).toBe(false);
  });
});
