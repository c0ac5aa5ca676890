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
export const ACTIVE_STATUSES: readonly BatchStatus[] = ['validating', 'in_progress', 'finalizing'];

export const BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/completions', '/v1/embeddings'] as const;

/** One line of an output or error file. */
export interface BatchResultLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: unknown } | null;
  error: { code?: string; message: string } | null;
}
