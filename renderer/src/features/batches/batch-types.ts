import type { BatchRecord, BatchStatus } from '../../../../gateway/src/store/batches-repository';

export type { BatchStatus };

/** A batch as `/v1/batch` returns it (the stored record with OpenAI's field layout). */
export interface Batch
  extends Pick<
    BatchRecord,
    'id' | 'status' | 'endpoint' | 'input_file_id' | 'output_file_id' | 'error_file_id' | 'completion_window' | 'metadata' | 'created_at' | 'in_progress_at' | 'completed_at' | 'cancelled_at' | 'failed_at'
  > {
  object: 'batch';
  expires_at: number;
  request_counts: { total: number; completed: number; failed: number };
  errors: { object: 'list'; data: BatchRecord['errors'] };
}

/** Statuses the gateway will still move on from by itself, so the list keeps polling. */
export const ACTIVE_STATUSES: readonly BatchStatus[] = ['validating', 'in_progress', 'finalizing', 'cancelling'];

/** A cancelled batch writes the results it finished a moment after the status changes: keep watching it for this long. */
export const CANCEL_SETTLE_SECONDS = 30;

export function isSettling(batch: Batch, nowSeconds = Date.now() / 1000): boolean {
  if (ACTIVE_STATUSES.includes(batch.status)) return true;
  return batch.status === 'cancelled' && !batch.output_file_id && !batch.error_file_id && batch.cancelled_at !== null && nowSeconds - batch.cancelled_at < CANCEL_SETTLE_SECONDS;
}

/** Why a batch failed or what went wrong in it, from the errors the API reports. */
export function batchProblem(batch: Batch): string | null {
  const errors = batch.errors.data;
  if (errors.length === 0) return batch.status === 'failed' ? 'The batch failed before any line ran.' : null;
  const first = errors[0];
  const where = first.line > 0 ? `line ${first.line}: ` : '';
  return `${where}${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`;
}

export const BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/completions', '/v1/embeddings'] as const;

/** One line of an output or error file. */
export interface BatchResultLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: unknown } | null;
  error: { code?: string; message: string } | null;
}
