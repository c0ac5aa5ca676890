import type { KeyService } from '../account/key-service.js';
import type { QueueWorker } from './queue-worker.js';
import { untilAborted } from './until-aborted.js';

/** A line stopped before its result was stored (the instance is stopping): it runs again, at the next start or on another instance. */
export class BatchLineAbandoned extends Error {
  override readonly name = 'BatchLineAbandoned';
}

interface LinesLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

/** How often an instance with lines in flight re-reads their jobs' status (a cancel missed over Redis). */
const STATUS_CHECK_MS = 3000;

/**
 * What every kind of work on the batch queue (batches, eval runs) keeps of its lines on this instance:
 * the aborts of the lines in flight per job (a cancel or expiry here or on another instance stops
 * them), the internal token each job's lines run with, and the stop. A job is a batch or a run.
 */
export class LinesInFlight implements Omit<QueueWorker, 'handlers' | 'resume'> {
  private readonly inFlight = new Map<string, Set<AbortController>>();
  private readonly tokens = new Map<string, string>();
  private stopping = false;
  /** Aborted when stopping begins: rate-limit waits end and no further line starts. */
  private readonly stopRequested = new AbortController();
  private announceStop: (jobId: string) => void = () => undefined;
  private statusCheck: NodeJS.Timeout | undefined;
  private watching = false;

  /** `runningJobs` lists the jobs still running (read when a cancel may have been missed). */
  constructor(
    private readonly keys: KeyService,
    private readonly logger: LinesLogger,
    private readonly runningJobs: () => Promise<string[]>,
  ) {}

  get isStopping(): boolean {
    return this.stopping;
  }

  /** Aborted when the instance begins to stop. */
  get stopSignal(): AbortSignal {
    return this.stopRequested.signal;
  }

  /** The queue takes work: from now on the status of the jobs with lines in flight is re-read now and then. */
  watchStatus(): void {
    this.watching = true;
    this.checkWhileBusy();
  }

  beginStop(): void {
    this.stopping = true;
    this.checkWhileBusy();
    this.stopRequested.abort();
  }

  /** The status is re-read only while a line is in flight here: an idle instance has no timer waking it. */
  private checkWhileBusy(): void {
    const busy = this.watching && !this.stopping && this.inFlight.size > 0;
    if (busy && !this.statusCheck) {
      this.statusCheck = setInterval(() => void this.abortLinesOfStoppedJobs(), STATUS_CHECK_MS);
      this.statusCheck.unref();
    } else if (!busy && this.statusCheck) {
      clearInterval(this.statusCheck);
      this.statusCheck = undefined;
    }
  }

  stopped(): void {
    for (const token of this.tokens.values()) this.keys.revokeInternalToken(token);
    this.tokens.clear();
  }

  abortLines(jobId: string): void {
    for (const controller of this.inFlight.get(jobId) ?? []) controller.abort();
  }

  announceStopsTo(announce: (jobId: string) => void): void {
    this.announceStop = announce;
  }

  /** Stops a job's lines in flight here and on the other instances. */
  stopLines(jobId: string): void {
    this.abortLines(jobId);
    this.announceStop(jobId);
  }

  /**
   * Runs one line of a job: `work`'s result, `'stopped'` when the job was cancelled or expired
   * meanwhile (the result is not to be stored), or BatchLineAbandoned when the instance stops first.
   */
  async run<T>(
    jobId: string,
    lineName: string,
    abandon: AbortSignal,
    work: (signal: AbortSignal) => Promise<T | undefined>,
  ): Promise<T | 'stopped'> {
    if (this.stopping) throw new BatchLineAbandoned(`${lineName} was not started: the gateway is stopping.`);
    const stopped = new AbortController();
    const lines = this.inFlight.get(jobId) ?? new Set();
    this.inFlight.set(jobId, lines.add(stopped));
    this.checkWhileBusy();
    try {
      const signal = AbortSignal.any([stopped.signal, abandon]);
      const result = await untilAborted(work(signal), signal);
      if (stopped.signal.aborted) return 'stopped';
      if (result === undefined) throw new BatchLineAbandoned(`${lineName} was stopped with the gateway.`);
      return result;
    } finally {
      lines.delete(stopped);
      if (lines.size === 0) this.inFlight.delete(jobId);
      this.checkWhileBusy();
    }
  }

  /** The internal token the job's lines run as its key with ('' for a job without a key). */
  tokenFor(jobId: string, keyId: string | null): string {
    if (!keyId) return '';
    let token = this.tokens.get(jobId);
    if (!token) this.tokens.set(jobId, (token = this.keys.issueInternalToken(keyId)));
    return token;
  }

  /** The job ended: its token goes once no line of it is in flight here. */
  forgetToken(jobId: string): void {
    const token = this.tokens.get(jobId);
    if (token && !this.inFlight.has(jobId)) {
      this.keys.revokeInternalToken(token);
      this.tokens.delete(jobId);
    }
  }

  /** The fallback of the stop message (which a Redis outage loses); nothing is read while no line is in flight here. */
  private async abortLinesOfStoppedJobs(): Promise<void> {
    if (this.inFlight.size === 0) return;
    try {
      const running = new Set(await this.runningJobs());
      for (const jobId of this.inFlight.keys()) if (!running.has(jobId)) this.abortLines(jobId);
    } catch (error) {
      this.logger.warn({ err: error }, 'batch queue: could not re-read the status of the work in flight');
    }
  }
}
