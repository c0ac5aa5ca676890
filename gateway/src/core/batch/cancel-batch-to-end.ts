import { setTimeout as sleep } from 'node:timers/promises';
import type { OwnerScope } from '../../store/owner-scope.js';
import type { BatchRecord } from './create-batch-job.js';
import type { BatchRunner } from './batch-runner.js';

/** The longest SPEC's cancel waits for the batch's files to be written before it answers. */
export const CANCEL_SETTLE_MS = 10_000;
const CANCEL_POLL_MS = 25;

/**
 * SPEC's cancel (`POST /v1/batch/{id}/cancel`) answers `cancelled` with `cancelled_at`, so it waits
 * while the batch is `cancelling` (its lines in flight stopped, what finished written out; the
 * runner's finalise step, on any instance). OpenAI's and Mistral's paths answer `cancelling` at once.
 */
export async function cancelBatchToEnd(
  runner: BatchRunner,
  id: string,
  scope: OwnerScope,
  settleMs = CANCEL_SETTLE_MS,
): Promise<BatchRecord> {
  let batch = await runner.cancel(id, scope);
  const until = Date.now() + settleMs;
  while (batch.status === 'cancelling' && Date.now() < until) {
    await sleep(CANCEL_POLL_MS);
    batch = await runner.get(id);
  }
  return batch;
}
