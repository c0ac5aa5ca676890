import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchRecord, BatchesRepository } from '../../store/batches-repository.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import type { FileStore } from '../files/file-store.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';
import type { KeyService } from '../account/key-service.js';
import { parseBatchInput, type BatchRequestLine } from './parse-batch-input.js';

/** Runs one request of a batch through the gateway's own pipeline (auth, limits, billing, logging). */
export type BatchExecutor = (endpoint: string, body: Record<string, unknown>, token: string, signal: AbortSignal) => Promise<{ status: number; body: unknown; requestId: string; retryAfter?: number }>;

export interface BatchRunnerLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

const MAX_RATE_LIMIT_WAITS = 5;
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;

const seconds = (ms: number) => Math.floor(ms / 1000);

export function windowSeconds(window: string): number {
  const match = /^(\d+)(h|d)$/.exec(window);
  if (!match) return 24 * 3600;
  return Number(match[1]) * (match[2] === 'd' ? 86_400 : 3_600);
}

/** The work's result, or undefined as soon as `signal` aborts (the work's own result or failure is then ignored). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (signal.aborted ? resolve(undefined) : resolve(value)),
      (error: unknown) => (signal.aborted ? resolve(undefined) : reject(error)),
    ).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function countLines(path: string): Promise<number> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/**
 * Batches: validates the input file, then runs its requests one after another, spooling each result
 * to disk so a restart resumes where it stopped; when done (or cancelled, or expired) the results
 * become the output and error files.
 */
export class BatchRunner {
  private readonly queue: string[] = [];
  private draining: Promise<void> | undefined;
  /** The batch whose lines are being run now, and the abort of its line in flight (a cancel stops it). */
  private running: string | undefined;
  private cancelLine = new AbortController();
  private stopped = false;
  /** Aborted when stopping begins: rate-limit waits end and no further line starts. */
  private readonly stopRequested = new AbortController();
  /** Aborted when the grace period is over: the line still in flight is abandoned. */
  private readonly abandon = new AbortController();

  constructor(
    private readonly batches: BatchesRepository,
    private readonly files: FileStore,
    private readonly keys: KeyService,
    private readonly execute: BatchExecutor,
    private readonly spoolDir: string,
    private readonly logger: BatchRunnerLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Picks up batches a previous run left unfinished. */
  async resume(): Promise<void> {
    for (const batch of await this.batches.withStatus(['validating', 'in_progress', 'finalizing', 'cancelling'])) this.enqueue(batch.id);
  }

  enqueue(id: string): void {
    this.queue.push(id);
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  /**
   * Cancels an in-progress batch. While the runner is working on it, it becomes `cancelling`: the
   * line in flight is stopped (its result discarded), no further line starts, what finished is written
   * to the output and error files, and then it is `cancelled`. A batch the runner has not reached yet
   * is `cancelled` at once.
   */
  async cancel(id: string, scope?: OwnerScope): Promise<BatchRecord> {
    const batch = await this.get(id, scope);
    if (batch.status !== 'in_progress') {
      throw new GatewayError(409, 'batch_not_cancellable', `Batch ${id} is ${batch.status}; only batches in_progress can be cancelled.`, { param: 'batch_id' });
    }
    if (this.running === id) {
      await this.batches.update(id, { status: 'cancelling' });
      this.cancelLine.abort();
    } else await this.batches.update(id, { status: 'cancelled', cancelled_at: seconds(this.now()) });
    return this.get(id);
  }

  /** The batch; 404 when it does not exist or is outside `scope` (no scope: the runner's own use). */
  async get(id: string, scope?: OwnerScope): Promise<BatchRecord> {
    const batch = await this.batches.get(id, scope);
    if (!batch) throw new GatewayError(404, 'batch_not_found', `No batch with id "${id}".`, { param: 'batch_id' });
    return batch;
  }

  /**
   * Starts no further line and lets the one in flight finish and be recorded within `graceMs`, so a
   * graceful stop never sends a line upstream twice. A line still running after that is abandoned
   * (not recorded: it runs again when the batch resumes at the next start).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.stopRequested.abort();
    const timer = setTimeout(() => this.abandon.abort(), graceMs);
    try {
      await this.draining;
    } finally {
      clearTimeout(timer);
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const id = this.queue.shift()!;
      this.running = id;
      this.cancelLine = new AbortController();
      try {
        await this.run(id);
      } catch (error) {
        if (this.stopped) return;
        this.logger.warn({ batch: id, err: error }, 'batch failed');
        await this.batches
          .update(id, { status: 'failed', failed_at: seconds(this.now()), errors: [{ line: 0, message: (error as Error).message }] })
          .catch((stored: unknown) => this.logger.warn({ batch: id, err: stored }, 'could not mark the batch failed'));
      } finally {
        this.running = undefined;
      }
    }
  }

  private spool(id: string) {
    return { output: join(this.spoolDir, `${id}.output.jsonl`), errors: join(this.spoolDir, `${id}.errors.jsonl`) };
  }

  private async validate(batch: BatchRecord): Promise<BatchRequestLine[] | undefined> {
    const { content } = await this.files.content(batch.input_file_id);
    const { requests, problems } = parseBatchInput(content.toString('utf8'), batch.endpoint);
    if (problems.length > 0) {
      await this.batches.update(batch.id, { status: 'failed', failed_at: seconds(this.now()), errors: problems.slice(0, 100) });
      return undefined;
    }
    return requests;
  }

  private async run(id: string): Promise<void> {
    let batch = await this.get(id);
    const requests = await this.validate(batch);
    if (!requests) return;
    if (batch.status === 'validating') {
      await this.batches.update(id, { status: 'in_progress', in_progress_at: seconds(this.now()), total: requests.length });
    }
    await mkdir(this.spoolDir, { recursive: true });
    const spool = this.spool(id);
    const done = (await countLines(spool.output)) + (await countLines(spool.errors));
    const deadline = (batch.created_at + windowSeconds(batch.completion_window)) * 1000;
    let completed = await countLines(spool.output);
    let failed = await countLines(spool.errors);
    const token = batch.key_id ? this.keys.issueInternalToken(batch.key_id) : '';
    /** Lines left for the next start: stopping came before the last one was recorded. */
    let interrupted = false;
    try {
      for (const request of requests.slice(done)) {
        batch = await this.get(id);
        if (batch.status !== 'in_progress' || this.stopped) {
          interrupted = this.stopped && batch.status === 'in_progress';
          break;
        }
        if (this.now() > deadline) {
          await this.batches.update(id, { status: 'expired' });
          break;
        }
        const cancelled = this.cancelLine.signal;
        const result = await untilAborted(this.executeWithRateLimitWaits(batch.endpoint, request.body, token, cancelled), cancelled);
        if (cancelled.aborted) break;
        if (!result || this.abandon.signal.aborted) {
          interrupted = true;
          break;
        }
        const line = { id: newId('batch_req_'), custom_id: request.custom_id, response: { status_code: result.status, request_id: result.requestId, body: result.body } };
        if (result.status < 400) {
          await appendFile(spool.output, `${JSON.stringify({ ...line, error: null })}\n`);
          completed++;
        } else {
          const error = result.body as { code?: string; message?: string } | undefined;
          await appendFile(spool.errors, `${JSON.stringify({ ...line, error: { code: error?.code ?? `http_${result.status}`, message: error?.message ?? `HTTP ${result.status}` } })}\n`);
          failed++;
        }
        await this.batches.update(id, { completed, failed });
      }
    } finally {
      if (token) this.keys.revokeInternalToken(token);
    }
    // A batch whose last line finished while stopping is finalised now, not at the next start.
    if (interrupted) return;
    await this.finalise(id);
  }

  /** The line's result, or undefined when stopping cut a rate-limit wait short (the line runs again at the next start). */
  private async executeWithRateLimitWaits(endpoint: string, body: Record<string, unknown>, token: string, cancelled: AbortSignal) {
    const signal = AbortSignal.any([this.abandon.signal, cancelled]);
    for (let attempt = 0; ; attempt++) {
      const result = await this.execute(endpoint, { ...body, stream: false }, token, signal);
      const wait = result.retryAfter ?? 1;
      if (result.status !== 429 || attempt >= MAX_RATE_LIMIT_WAITS || wait > MAX_RATE_LIMIT_WAIT_SECONDS) return result;
      if (this.stopped) return undefined;
      await sleep(wait * 1000, undefined, { signal: AbortSignal.any([this.stopRequested.signal, cancelled]) });
    }
  }

  /** Turns the spooled results into output and error files; the final status is completed, or cancelled after cancelling, unless it already ended (cancelled, expired). */
  private async finalise(id: string): Promise<void> {
    const batch = await this.get(id);
    const spool = this.spool(id);
    const save = async (path: string, suffix: string) => {
      const content = await readFile(path).catch(() => undefined);
      if (!content || content.length === 0) return null;
      const record = await this.files.save(content, { purpose: 'batch_output', filename: `${id}_${suffix}.jsonl`, mimeType: 'application/jsonl', keyId: batch.key_id });
      return record.id;
    };
    const wasRunning = batch.status === 'in_progress' || batch.status === 'finalizing';
    if (wasRunning) await this.batches.update(id, { status: 'finalizing' });
    const output_file_id = await save(spool.output, 'output');
    const error_file_id = await save(spool.errors, 'errors');
    const ended = wasRunning
      ? { status: 'completed' as const, completed_at: seconds(this.now()) }
      : batch.status === 'cancelling'
        ? { status: 'cancelled' as const, cancelled_at: seconds(this.now()) }
        : {};
    await this.batches.update(id, { output_file_id, error_file_id, ...ended });
    await Promise.all([rm(spool.output, { force: true }), rm(spool.errors, { force: true })]);
  }
}
