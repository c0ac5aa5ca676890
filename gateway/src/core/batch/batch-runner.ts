import type { BatchLineResult, BatchRecord, BatchesRepository, BatchStatus } from '../../store/batches-repository.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import type { FileStore } from '../files/file-store.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';
import type { KeyService } from '../account/key-service.js';
import type { BatchExecutor } from './batch-executor.js';
import { parseBatchInput, type BatchRequestLine } from './parse-batch-input.js';
import type { BatchLineQueue, BatchQueueHandlers, QueuedBatchLine } from './batch-line-queue.js';
import { executeWithRateLimitWaits } from './execute-with-rate-limit-waits.js';
import { LinesInFlight } from './lines-in-flight.js';
import type { QueueWorker } from './queue-worker.js';

export interface BatchRunnerLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export function windowSeconds(window: string): number {
  const match = /^(\d+)(h|d)$/.exec(window);
  if (!match) return 24 * 3600;
  return Number(match[1]) * (match[2] === 'd' ? 86_400 : 3_600);
}

const UNFINISHED: BatchStatus[] = ['validating', 'in_progress', 'finalizing', 'cancelling'];

/**
 * Batches: validates the input file, queues its lines (`BatchLineQueue`: in this process, or pg-boss
 * jobs every instance takes), runs each through the gateway's own pipeline and stores its result in
 * the database once (on (batch, custom_id)); when every line is stored (or the batch is cancelled or
 * expires) the stored results become the output and error files, in input order.
 */
export class BatchRunner implements QueueWorker {
  private readonly lines: LinesInFlight;

  constructor(
    private readonly batches: BatchesRepository,
    private readonly files: FileStore,
    keys: KeyService,
    private readonly execute: BatchExecutor,
    private readonly queue: BatchLineQueue,
    private readonly logger: BatchRunnerLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.lines = new LinesInFlight(keys, logger, async () =>
      (await batches.withStatus(['in_progress'])).map((batch) => batch.id),
    );
  }

  /** What the queue calls for batches' work. */
  readonly handlers: BatchQueueHandlers = {
    startBatch: (id) => this.startBatch(id),
    finaliseBatch: (id) => this.finalise(id),
    runLine: (line, signal) => this.runLine(line, signal),
  };

  /**
   * Once the queue takes work: queues the unfinished batches again, their start (the lines not
   * stored yet) or their files. On pg-boss the job ids are the batch's, so that queues nothing twice
   * while the jobs exist, and picks up batches that were running before the queue existed.
   */
  async resume(): Promise<void> {
    this.lines.watchStatus();
    for (const batch of await this.batches.withStatus([...UNFINISHED, 'expired'])) {
      if (batch.status === 'validating' || batch.status === 'in_progress') await this.queue.queueBatch(batch.id);
      else if (batch.status !== 'expired' || (batch.output_file_id === null && batch.error_file_id === null))
        await this.queue.queueFinalise(batch.id);
    }
  }

  /** Queues a new batch (it is validated, then its lines are queued). */
  async enqueue(id: string): Promise<void> {
    await this.queue.queueBatch(id);
  }

  /** Team mode: `announce` tells the other instances that a batch stopped (cancelled, expired), so they abort its lines in flight. */
  announceStopsTo(announce: (batchId: string) => void): void {
    this.lines.announceStopsTo(announce);
  }

  /** Aborts this instance's lines in flight of a batch that stopped (their results are not stored, nor billed unless they reached the upstream). */
  abortLines(batchId: string): void {
    this.lines.abortLines(batchId);
  }

  /**
   * Cancels an in-progress batch: it becomes `cancelling`, its lines in flight are stopped on every
   * instance (their results discarded), no further line starts, what finished is written to the
   * output and error files, and then it is `cancelled`.
   */
  async cancel(id: string, scope?: OwnerScope): Promise<BatchRecord> {
    const batch = await this.get(id, scope);
    if (batch.status !== 'in_progress' || !(await this.batches.transition(id, ['in_progress'], 'cancelling'))) {
      const now = await this.get(id);
      throw new GatewayError(
        409,
        'batch_not_cancellable',
        `Batch ${id} is ${now.status}; only batches in_progress can be cancelled.`,
        { param: 'batch_id' },
      );
    }
    this.lines.stopLines(id);
    const cancelling = await this.get(id);
    await this.queue.queueFinalise(id);
    return cancelling;
  }

  /** The batch; 404 when it does not exist or is outside `scope` (no scope: the runner's own use). */
  async get(id: string, scope?: OwnerScope): Promise<BatchRecord> {
    const batch = await this.batches.get(id, scope);
    if (!batch) throw new GatewayError(404, 'batch_not_found', `No batch with id "${id}".`, { param: 'batch_id' });
    return batch;
  }

  /**
   * Stopping begins (`BatchWork.stop`): no further line starts, and the ones in flight finish and are
   * stored within the queue's grace, so a graceful stop never sends a line upstream twice. A line
   * still running after that is abandoned (not stored: it runs again at the next start, or on
   * another instance).
   */
  beginStop(): void {
    this.lines.beginStop();
  }

  /** The queue stopped: the batches' internal tokens go. */
  stopped(): void {
    this.lines.stopped();
  }

  private deadline(batch: BatchRecord): number {
    return (batch.created_at + windowSeconds(batch.completion_window)) * 1000;
  }

  private async validate(batch: BatchRecord): Promise<BatchRequestLine[] | undefined> {
    const { content } = await this.files.content(batch.input_file_id);
    const { requests, problems } = parseBatchInput(content.toString('utf8'), batch.endpoint);
    if (problems.length > 0) {
      await this.batches.update(batch.id, {
        status: 'failed',
        failed_at: seconds(this.now()),
        errors: problems.slice(0, 100),
      });
      return undefined;
    }
    return requests;
  }

  /** Validates the batch and queues the lines not stored yet (all of them, unless it is resumed). */
  private async startBatch(id: string): Promise<void> {
    try {
      const batch = await this.get(id);
      if (batch.status !== 'validating' && batch.status !== 'in_progress') return;
      const requests = await this.validate(batch);
      if (!requests) return;
      if (batch.status === 'validating')
        await this.batches.transition(id, ['validating'], 'in_progress', {
          in_progress_at: seconds(this.now()),
          total: requests.length,
        });
      if (this.now() > this.deadline(batch)) return await this.expire(id);
      const stored = await this.batches.storedLineIds(id);
      const lines = requests
        .map((request, line) => ({
          batchId: id,
          keyId: batch.key_id,
          line,
          customId: request.custom_id,
          body: request.body,
        }))
        .filter((line) => !stored.has(line.customId));
      if (lines.length === 0) return await this.finishIfDone(id);
      await this.queue.queueLines(lines);
    } catch (error) {
      if (this.lines.isStopping) throw error;
      this.logger.warn({ batch: id, err: error }, 'batch failed');
      await this.batches.update(id, {
        status: 'failed',
        failed_at: seconds(this.now()),
        errors: [{ line: 0, message: (error as Error).message }],
      });
    }
  }

  /** Runs one line and stores its result; throws BatchLineAbandoned when stopping cut it short. */
  private async runLine(line: QueuedBatchLine, abandon: AbortSignal): Promise<void> {
    const batch = await this.batches.get(line.batchId);
    if (!batch || batch.status !== 'in_progress') return this.lines.forgetToken(line.batchId);
    if (this.now() > this.deadline(batch)) return this.expire(batch.id);
    const result = await this.lines.run(batch.id, `Batch ${batch.id} line ${line.line}`, abandon, (signal) =>
      executeWithRateLimitWaits(
        this.execute,
        { endpoint: batch.endpoint, body: line.body, token: this.lines.tokenFor(batch.id, batch.key_id) },
        signal,
        this.lines.stopSignal,
      ),
    );
    // Cancelled or expired meanwhile: the result is not stored.
    if (result === 'stopped') return;
    const stored = await this.batches.storeLine(line.batchId, this.lineResult(line, result));
    if (stored !== 'not_running') await this.finishIfDone(line.batchId);
  }

  private lineResult(line: QueuedBatchLine, result: Awaited<ReturnType<BatchExecutor>>): BatchLineResult {
    const written = {
      id: newId('batch_req_'),
      custom_id: line.customId,
      response: { status_code: result.status, request_id: result.requestId, body: result.body },
    };
    const ok = result.status < 400;
    const problem = result.body as { code?: string; message?: string } | undefined;
    const error = ok
      ? null
      : { code: problem?.code ?? `http_${result.status}`, message: problem?.message ?? `HTTP ${result.status}` };
    return { customId: line.customId, line: line.line, ok, result: JSON.stringify({ ...written, error }) };
  }

  /** The completion window passed: the batch is `expired`, its remaining lines are not run, what finished is written out. */
  private async expire(id: string): Promise<void> {
    if (!(await this.batches.transition(id, ['in_progress'], 'expired'))) return;
    this.lines.stopLines(id);
    await this.queue.queueFinalise(id);
  }

  /** Every line stored: the one instance that moves the batch to `finalizing` writes the files. */
  private async finishIfDone(id: string): Promise<void> {
    const batch = await this.get(id);
    if (batch.status === 'in_progress' && (await this.batches.lineCount(id)) >= batch.total) {
      if (await this.batches.transition(id, ['in_progress'], 'finalizing')) await this.queue.queueFinalise(id);
    } else if (batch.status !== 'in_progress') this.lines.forgetToken(id);
  }

  /**
   * Turns the stored results into output and error files (input order); the final status is
   * completed, or cancelled after cancelling; an expired batch stays expired, its lines that never
   * ran in the error file as `batch_expired` (as OpenAI writes them).
   */
  private async finalise(id: string): Promise<void> {
    const batch = await this.get(id);
    // Written already (a retried job, or a second start): nothing to do.
    const expiredUnwritten =
      batch.status === 'expired' && batch.output_file_id === null && batch.error_file_id === null;
    if (batch.status !== 'finalizing' && batch.status !== 'cancelling' && !expiredUnwritten) return;
    const lines = await this.batches.lines(id);
    const errors = lines.filter((line) => !line.ok).map((line) => line.result);
    if (batch.status === 'expired') errors.push(...(await this.expiredLines(batch, lines)));
    const save = async (results: string[], suffix: string) => {
      if (results.length === 0) return null;
      const content = Buffer.from(`${results.join('\n')}\n`);
      const record = await this.files.save(content, {
        purpose: 'batch_output',
        filename: `${id}_${suffix}.jsonl`,
        mimeType: 'application/jsonl',
        keyId: batch.key_id,
      });
      return record.id;
    };
    const output_file_id = await save(
      lines.filter((line) => line.ok).map((line) => line.result),
      'output',
    );
    const error_file_id = await save(errors, 'errors');
    const ended =
      batch.status === 'finalizing'
        ? { status: 'completed' as const, completed_at: seconds(this.now()) }
        : batch.status === 'cancelling'
          ? { status: 'cancelled' as const, cancelled_at: seconds(this.now()) }
          : {};
    const completed = lines.filter((line) => line.ok).length;
    await this.batches.update(id, {
      output_file_id,
      error_file_id,
      completed,
      failed: lines.length - completed,
      ...ended,
    });
    await this.batches.deleteLines(id);
    this.lines.forgetToken(id);
  }

  private async expiredLines(batch: BatchRecord, stored: BatchLineResult[]): Promise<string[]> {
    const done = new Set(stored.map((line) => line.customId));
    const { content } = await this.files.content(batch.input_file_id);
    const { requests } = parseBatchInput(content.toString('utf8'), batch.endpoint);
    const error = {
      code: 'batch_expired',
      message: 'This request could not be executed before the completion window expired.',
    };
    return requests
      .filter((request) => !done.has(request.custom_id))
      .map((request) =>
        JSON.stringify({ id: newId('batch_req_'), custom_id: request.custom_id, response: null, error }),
      );
  }
}
