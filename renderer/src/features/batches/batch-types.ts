import type { Batch } from '../../../../gateway/src/api/batch/batch-schemas';
import type { BatchEndpoint } from '../../../../gateway/src/wire/batch-endpoints';
import type { Capability } from '../../lib/gateway-types';

export type { Batch, BatchEndpoint };
export type BatchStatus = Batch['status'];

/** Statuses the gateway will still move on from by itself, so the list keeps polling. */
export const ACTIVE_STATUSES: readonly BatchStatus[] = ['validating', 'in_progress', 'finalizing', 'cancelling'];

/** A cancelled batch writes the results it finished a moment after the status changes: keep watching it for this long. */
export const CANCEL_SETTLE_SECONDS = 30;

export function isSettling(batch: Batch, nowSeconds = Date.now() / 1000): boolean {
  if (ACTIVE_STATUSES.includes(batch.status)) return true;
  return (
    batch.status === 'cancelled' &&
    !batch.output_file_id &&
    !batch.error_file_id &&
    batch.cancelled_at !== null &&
    nowSeconds - batch.cancelled_at < CANCEL_SETTLE_SECONDS
  );
}

/** Why a batch failed or what went wrong in it, from the errors the API reports. */
export function batchProblem(batch: Batch): string | null {
  const errors = batch.errors.data;
  if (errors.length === 0) return batch.status === 'failed' ? 'The batch failed before any line ran.' : null;
  const first = errors[0];
  const where = first.line > 0 ? `line ${first.line}: ` : '';
  return `${where}${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`;
}

export type BatchTone = 'ok' | 'warn' | 'error' | 'active' | 'neutral';

const STATUS_TONE: Record<BatchStatus, BatchTone> = {
  validating: 'warn',
  in_progress: 'active',
  finalizing: 'active',
  completed: 'ok',
  failed: 'error',
  expired: 'error',
  cancelling: 'warn',
  cancelled: 'neutral',
};

/**
 * How a batch's status reads and looks. `completed` only says the batch ran to its end: one whose
 * every line failed reads as a failure, one with some failed lines as a warning, each with the count.
 */
export function batchLook(batch: Batch): { label: string; tone: BatchTone } {
  const { total, failed } = batch.request_counts;
  if (batch.status === 'completed' && failed > 0) {
    if (failed >= total)
      return { label: `completed, all ${failed} ${failed === 1 ? 'line' : 'lines'} failed`, tone: 'error' };
    return { label: `completed with ${failed} failed`, tone: 'warn' };
  }
  return { label: batch.status.replace('_', ' '), tone: STATUS_TONE[batch.status] };
}

/** The model capability each endpoint the gateway's batches accept needs; tsc fails here when the gateway's list (wire/batch-endpoints.ts) changes. */
export const ENDPOINT_CAPABILITY = {
  '/v1/chat/completions': 'chat',
  '/v1/completions': 'completions',
  '/v1/embeddings': 'embeddings',
  '/v1/ocr': 'ocr',
  '/v1/vision/analyze': 'vision',
  '/v1/vision/generate': 'image_generation',
} as const satisfies Record<BatchEndpoint, Capability>;

export const BATCH_ENDPOINTS = Object.keys(ENDPOINT_CAPABILITY) as BatchEndpoint[];

/** One line of an output or error file. */
export interface BatchResultLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: unknown } | null;
  error: { code?: string; message: string } | null;
}
