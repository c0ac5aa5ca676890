import type { BatchesRepository, BatchRecord } from '../../store/batches-repository.js';

export type { BatchRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import type { FileStore } from '../files/file-store.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newOrderedId } from '../ids/ids.js';
import { BATCH_ENDPOINTS, isBatchEndpoint, type BatchEndpoint } from '../../wire/batch-endpoints.js';
import type { Capability } from '../../providers/contracts/capability.js';
import type { StorageQuotas } from '../account/storage-quotas.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { BatchRunner } from './batch-runner.js';
import { checkBatchFile } from './batch-file-check.js';

export interface BatchJobServices {
  files: FileStore;
  batches: BatchesRepository;
  batchRunner: BatchRunner;
  quotas: Pick<StorageQuotas, 'checkNewBatch'>;
  models: ModelRegistry;
}

/** What the models of each batch endpoint must serve. */
const ENDPOINT_CAPABILITY: Record<BatchEndpoint, Capability> = {
  '/v1/chat/completions': 'chat',
  '/v1/completions': 'completions',
  '/v1/embeddings': 'embeddings',
  '/v1/ocr': 'ocr',
  '/v1/vision/analyze': 'vision',
  '/v1/vision/generate': 'image_generation',
};

/** A batch's model must be one a route serves: checked at creation, a 422 naming the field rather than failed lines later. */
export function checkBatchModel(
  models: ModelRegistry,
  endpoint: BatchEndpoint,
  model: string,
  param: string,
  where = '',
): void {
  try {
    models.find(model, ENDPOINT_CAPABILITY[endpoint]);
  } catch (error) {
    if (error instanceof GatewayError) throw new GatewayError(422, error.code, `${where}${error.message}`, { param });
    throw error;
  }
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
export function batchEndpoint(given: string): BatchEndpoint {
  const endpoint = given.startsWith('/v1/') ? given : `/v1${given.startsWith('/') ? '' : '/'}${given}`;
  if (!isBatchEndpoint(endpoint)) {
    throw new GatewayError(
      422,
      'invalid_value',
      `Invalid request: 'endpoint' must be one of ${BATCH_ENDPOINTS.join(', ')}.`,
      { param: 'endpoint' },
    );
  }
  return endpoint;
}

/** Stores a new batch over an uploaded input file and queues it on the one batch engine, whichever API shape asked. */
export async function createBatchJob(services: BatchJobServices, job: NewBatchJob): Promise<BatchRecord> {
  const endpoint = batchEndpoint(job.endpoint);
  await services.quotas.checkNewBatch(job.owner.keyId);
  const { record: input, content } = await services.files.content(job.inputFileId, job.owner);
  await checkBatchInput(services.models, endpoint, content);
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

/** The input file's lines are valid, for this endpoint, and name models that routes serve; otherwise a 422 naming `input_file_id` (or `endpoint`). */
async function checkBatchInput(models: ModelRegistry, endpoint: BatchEndpoint, content: Buffer): Promise<void> {
  const summary = await checkBatchFile(content).catch((error: unknown) => {
    throw error instanceof GatewayError
      ? new GatewayError(error.status, error.code, error.message, { param: 'input_file_id' })
      : error;
  });
  if (summary.url !== undefined && summary.url !== endpoint) {
    throw new GatewayError(
      422,
      'invalid_value',
      `The input file's requests are for ${summary.url}, not the batch's endpoint ${endpoint}.`,
      { param: 'endpoint' },
    );
  }
  if (models.withCapability(ENDPOINT_CAPABILITY[endpoint]).length === 0) {
    throw new GatewayError(
      422,
      'capability_not_served',
      `No model here serves ${ENDPOINT_CAPABILITY[endpoint]}, so no request of a batch on ${endpoint} could run. Add a route with that capability first.`,
      { param: 'endpoint' },
    );
  }
  for (const [model, line] of summary.models)
    checkBatchModel(models, endpoint, model, 'input_file_id', `Line ${line} of the input file: `);
}
