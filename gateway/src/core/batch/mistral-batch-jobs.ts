import type { BatchRecord, BatchStatus } from '../../store/batches-repository.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import { GatewayError } from '../errors/gateway-error.js';
import { createBatchJob, batchEndpoint, checkBatchModel, type BatchJobServices } from './create-batch-job.js';

/** Mistral's batch job statuses, from the engine's (OpenAI-style) ones. */
const MISTRAL_STATUS: Record<BatchStatus, string> = {
  validating: 'QUEUED',
  in_progress: 'RUNNING',
  finalizing: 'RUNNING',
  completed: 'SUCCESS',
  failed: 'FAILED',
  expired: 'TIMEOUT_EXCEEDED',
  cancelling: 'CANCELLATION_REQUESTED',
  cancelled: 'CANCELLED',
};

export interface MistralJobRequest {
  input_files?: string[] | null;
  requests?: { custom_id?: string | null; body: Record<string, unknown> }[] | null;
  endpoint: string;
  model?: string | null;
  agent_id?: string | null;
  metadata?: Record<string, string> | null;
  timeout_hours?: number;
}

/** The job as Mistral's SDK reads it (`BatchJob`). The model a job was created with is kept in the input lines, so `model` is null here. */
export function toMistralBatchJob(batch: BatchRecord) {
  return {
    id: batch.id,
    object: 'batch' as const,
    input_files: [batch.input_file_id],
    metadata: batch.metadata,
    endpoint: batch.endpoint,
    model: null,
    agent_id: null,
    output_file: batch.output_file_id,
    error_file: batch.error_file_id,
    errors: batch.errors.map((problem) => ({
      message: problem.line > 0 ? `line ${problem.line}: ${problem.message}` : problem.message,
      count: 1,
    })),
    status: MISTRAL_STATUS[batch.status],
    created_at: batch.created_at,
    total_requests: batch.total,
    completed_requests: batch.completed + batch.failed,
    succeeded_requests: batch.completed,
    failed_requests: batch.failed,
    started_at: batch.in_progress_at,
    completed_at: batch.completed_at ?? batch.failed_at ?? batch.cancelled_at,
  };
}

/**
 * Mistral's POST /v1/batch/jobs on the one batch engine: one input file as is; inline `requests`,
 * several files, or a job-level `model` become one derived JSONL input file (model set in each body).
 */
export async function createMistralBatchJob(
  services: BatchJobServices,
  job: MistralJobRequest,
  owner: OwnerScope,
): Promise<BatchRecord> {
  if (job.agent_id)
    throw new GatewayError(
      422,
      'unsupported_parameter',
      'Batch jobs on agents are not supported here; give a model and chat requests instead.',
      { param: 'agent_id' },
    );
  const endpoint = batchEndpoint(job.endpoint);
  if (job.model) checkBatchModel(services.models, endpoint, job.model, 'model');
  const inputFiles = job.input_files ?? [];
  const inline = job.requests ?? [];
  if (inputFiles.length === 0 && inline.length === 0)
    throw new GatewayError(422, 'invalid_value', "Invalid request: give 'input_files' or inline 'requests'.", {
      param: 'input_files',
    });
  const completionWindow = `${job.timeout_hours ?? 24}h`;
  const metadata = job.metadata ?? {};
  if (inputFiles.length === 1 && inline.length === 0 && !job.model) {
    return createBatchJob(services, { inputFileId: inputFiles[0], endpoint, completionWindow, metadata, owner });
  }
  const lines: string[] = [];
  for (const fileId of inputFiles)
    lines.push(
      ...(await services.files.content(fileId, owner)).content
        .toString('utf8')
        .split(/\r?\n/)
        .filter((line) => line.trim() !== ''),
    );
  inline.forEach((request, index) =>
    lines.push(JSON.stringify({ custom_id: request.custom_id ?? String(index), body: request.body })),
  );
  const withModel = job.model ? lines.map((line) => withBodyModel(line, job.model!)) : lines;
  const derived = await services.files.save(Buffer.from(withModel.join('\n') + '\n'), {
    purpose: 'batch',
    filename: 'batch-job-input.jsonl',
    mimeType: 'application/jsonl',
    keyId: owner.keyId,
  });
  return createBatchJob(services, { inputFileId: derived.id, endpoint, completionWindow, metadata, owner });
}

/** Sets the job's model in a line's body unless the line names one; lines that are not JSON are left for the engine to report. */
function withBodyModel(line: string, model: string): string {
  try {
    const entry = JSON.parse(line) as { body?: Record<string, unknown> };
    if (entry && typeof entry.body === 'object' && entry.body !== null && entry.body.model === undefined)
      entry.body.model = model;
    return JSON.stringify(entry);
  } catch {
    return line;
  }
}

/**
 * Mistral's DELETE /v1/batch/jobs/{id}. Jobs stay as the record of what ran and what it cost, so
 * deleting one is refused (after a 404 for a job the key cannot see), with what to do instead.
 */
export async function refuseBatchJobDelete(
  runner: { get(id: string, scope?: OwnerScope): Promise<BatchRecord> },
  id: string,
  owner: OwnerScope,
): Promise<never> {
  const job = await runner.get(id, owner);
  const files = [job.input_file_id, job.output_file_id, job.error_file_id].filter(
    (file): file is string => typeof file === 'string',
  );
  throw new GatewayError(
    422,
    'unsupported_operation',
    `Batch jobs are kept as the record of what ran and what it cost, so "${id}" cannot be deleted here; delete its files (${files.join(', ')}) with DELETE /v1/files/{file_id}.`,
    { param: 'job_id' },
  );
}
