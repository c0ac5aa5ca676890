import { availableParallelism } from 'node:os';
import { MessageChannel, type TransferListItem } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { MediaError } from '../media-error.js';
import { threadExecArgv } from './task-module.js';
import { unwrapOutcome, type WorkEnvelope, type WorkOutcome } from './work-task.js';

export interface WorkPoolOptions {
  /** Threads decoding at once; more jobs wait in line. */
  threads: number;
  /** Longest one job may run before its thread is stopped (504). */
  jobTimeoutMs: number;
  /** JavaScript heap of one thread, in MiB; a job that needs more stops its thread (413). */
  jobMemoryMb: number;
}

/** Two threads at most (what a small machine's second core can give without starving the event loop), 60 s and 512 MiB per job. */
export const defaultWorkPoolOptions = (): WorkPoolOptions => ({
  threads: Math.min(2, availableParallelism()),
  jobTimeoutMs: 60_000,
  jobMemoryMb: 512,
});

export interface WorkJob {
  /** The task module (see taskModule) and the name of its exported task (see workTask). */
  module: string;
  name: string;
  signal: AbortSignal;
  transferList?: TransferListItem[];
}

const cancelled = (): MediaError => new MediaError('cancelled', 'The request was cancelled.', { code: 'aborted' });

/** Idle threads are stopped after this long, so a gateway that read one PDF does not keep its memory. */
const IDLE_MS = 30_000;

/**
 * Threads that decode and measure what clients send (PDFs, images, pixels), so the event loop only
 * routes: each job has a time budget and a heap limit, and a job past either, or one whose request is
 * cancelled, has its thread stopped (the next job gets a fresh one). Jobs wait in line for a thread.
 */
export class WorkPool {
  private readonly pool: Piscina;

  constructor(private readonly options: WorkPoolOptions) {
    this.pool = new Piscina({
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: options.jobMemoryMb, maxYoungGenerationSizeMb: 16 },
      execArgv: threadExecArgv(import.meta.url),
    });
  }

  /** Runs a task on a thread; a MediaError it throws is thrown here as it was. */
  async run<P, R>(payload: P, job: WorkJob): Promise<R> {
    if (job.signal.aborted) throw cancelled();
    const budget = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The budget counts from the moment a thread takes the job: waiting in line is not the document's doing.
    const started = new MessageChannel();
    started.port1.once('message', () => {
      timer = setTimeout(() => budget.abort(), this.options.jobTimeoutMs);
    });
    started.port1.unref();
    const stop = (): void => budget.abort();
    job.signal.addEventListener('abort', stop, { once: true });
    try {
      const envelope: WorkEnvelope<P> = { payload, started: started.port2 };
      const outcome = (await this.pool.run(envelope, {
        filename: job.module,
        name: job.name,
        signal: budget.signal,
        transferList: [started.port2, ...(job.transferList ?? [])],
      })) as WorkOutcome<R>;
      return unwrapOutcome(outcome);
    } catch (error) {
      if (error instanceof MediaError) throw error;
      if (job.signal.aborted) throw cancelled();
      if (budget.signal.aborted) {
        throw new MediaError(
          'too_slow',
          `Reading the document took longer than its ${this.options.jobTimeoutMs} ms budget (server.media_job_timeout_ms) and was stopped. Send a simpler or smaller document.`,
          {
            code: 'document_too_slow',
          },
        );
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new MediaError(
          'too_large',
          `Reading the document needed more than its ${this.options.jobMemoryMb} MiB memory limit (server.media_job_memory_mb) and was stopped. Send a simpler or smaller document.`,
          {
            code: 'document_too_large',
            param: 'document',
          },
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      started.port1.close();
      job.signal.removeEventListener('abort', stop);
    }
  }

  /** Stops every thread; jobs still running fail. */
  close(): Promise<void> {
    return this.pool.destroy();
  }
}
