import type { OwnerScope } from '../../store/owner-scope.js';
import { cancelBatchToEnd } from './cancel-batch-to-end.js';
import { createBatchJob, type BatchJobServices, type BatchRecord, type NewBatchJob } from './create-batch-job.js';
import { createMistralBatchJob, refuseBatchJobDelete, type MistralJobRequest } from './mistral-batch-jobs.js';

/**
 * The batch use cases every batch API shape (SPEC's /v1/batch, OpenAI's /v1/batches, Mistral's
 * /v1/batch/jobs) calls: create, list, read and cancel batches of the one batch engine (`BatchRunner`).
 */
export class BatchService {
  constructor(private readonly services: BatchJobServices) {}

  /** Stores a new batch over an uploaded input file and queues it. */
  create(job: NewBatchJob): Promise<BatchRecord> {
    return createBatchJob(this.services, job);
  }

  /** Mistral's job: input files or inline requests, with an optional job-level model. */
  createMistralJob(job: MistralJobRequest, owner: OwnerScope): Promise<BatchRecord> {
    return createMistralBatchJob(this.services, job, owner);
  }

  /** Up to `limit` batches the scope may see, newest first, after the batch `after` (or from `offset`). */
  list(limit: number, after: string | undefined, scope: OwnerScope, offset?: number): Promise<BatchRecord[]> {
    return this.services.batches.list(limit, after, scope, offset);
  }

  /** How many batches the scope may see. */
  count(scope: OwnerScope): Promise<number> {
    return this.services.batches.countIn(scope);
  }

  /** The batch; 404 when it does not exist or is outside `scope`. */
  get(id: string, scope: OwnerScope): Promise<BatchRecord> {
    return this.services.batchRunner.get(id, scope);
  }

  /** Cancels an in-progress batch and answers at once (`cancelling`), as OpenAI's and Mistral's paths do. */
  cancel(id: string, scope: OwnerScope): Promise<BatchRecord> {
    return this.services.batchRunner.cancel(id, scope);
  }

  /** Cancels an in-progress batch and answers once it is `cancelled` (SPEC's path). */
  cancelToEnd(id: string, scope: OwnerScope): Promise<BatchRecord> {
    return cancelBatchToEnd(this.services.batchRunner, id, scope);
  }

  /** Mistral's delete: refused (jobs are the record of what ran), after a 404 for a job the scope cannot see. */
  refuseDelete(id: string, scope: OwnerScope): Promise<never> {
    return refuseBatchJobDelete(this.services.batchRunner, id, scope);
  }
}
