import type { BatchesRepository, BatchRecord } from '../../store/batches-repository.js';

export type { BatchRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import type { FileStore } from '../files/file-store.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newOrderedId } from '../ids/ids.js';
import { BATCH_ENDPOINTS, isBatchEndpoint } from '../../wire/batch-endpoints.js';
import type { StorageQuotas } from '../account/storage-quotas.js';
import type { BatchRunner } from './batch-runner.js';

export interface BatchJobServices {
  files: FileStore;
  batches: BatchesRepository;
  batchRunner: BatchRunner;
  quotas: Pick<StorageQuotas, 'checkNewBatch'>;
}

export interface NewBatchJob {
  inputFileId: string;
  endpoint: string;
  completionWindow: string;
  metadata: Record<string, string>;
  /** The creating key's scope: the input file must be one it may read, and the batch becomes its own. */
  owner: OwnerScope;
}

/** `chat/completions`, `/chat/completions` and `/v1/chat/completions` all name the same endpoint. */
export function batchEndpoint(given: string): string {
  const endpoint = given.startsWith('/v1/') ? given : `/v1${given.startsWith('/') ? '' : '/'}${given}`;
  if (!isBatchEndpoint(endpoint)) {
    throw new GatewayError(422, 'invalid_value', `Invalid request: 'endpoint' must be one of ${BATCH_ENDPOINTS.join(', ')}.`, { param: 'endpoint' });
  }
  return endpoint;
}

/** Stores a new batch over an uploaded input file and queues it on the one batch engine, whichever API shape asked. */
export async function createBatchJob(services: BatchJobServices, job: NewBatchJob): Promise<BatchRecord> {
  const endpoint = batchEndpoint(job.endpoint);
  const input = await services.files.get(job.inputFileId, job.owner);
  await services.quotas.checkNewBatch(job.owner.keyId);
  const record: BatchRecord = {
    id: newOrderedId('batch_'),
    status: 'validating',
    endpoint,
    input_file_id: input.id,
    output_file_id: null,
    error_file_id: null,
    completion_window: job.completionWindow,
    metadata: job.metadata,
    created_at: Math.floor(Date.now() / 1000),
    in_progress_at: null,
    completed_at: null,
    cancelled_at: null,
    failed_at: null,
    total: 0,
    completed: 0,
    failed: 0,
    key_id: job.owner.keyId,
    errors: [],
  };
  await services.batches.insert(record);
  await services.batchRunner.enqueue(record.id);
  return record;
}
