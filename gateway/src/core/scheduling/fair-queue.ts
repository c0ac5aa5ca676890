import { GatewayError } from '../errors/gateway-error.js';

export interface FairQueueLimits {
  /** Jobs running at once, all keys together. */
  concurrency: number;
  /** Jobs of one key running at once. */
  perKey: number;
}

/**
 * Admission in front of a shared capacity (an OCR engine's workers): at most `concurrency` jobs run,
 * at most `perKey` of one key, and a freed slot goes to the waiting key whose last turn is oldest
 * (round-robin), so one key's backlog delays another key's first job by at most the one job that
 * frees a slot.
 *
 * @example
 *   const queue = new FairQueue({ concurrency: 4, perKey: 2 });
 *   const text = await queue.run(keyId, signal, () => engine.ocr(page));
 */
export class FairQueue {
  /** Starts of the waiting jobs, per key. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly runningPerKey = new Map<string, number>();
  /**
   * When each key with jobs waiting or running last had a turn; a key that starts waiting ranks
   * just before the keys served since, and behind those still waiting from before.
   */
  private readonly lastTurn = new Map<string, number>();
  private running = 0;
  private turns = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  /** Runs `task` once `key` has its turn and a slot; a `signal` that aborts while waiting takes the job out of the queue. */
  async run<T>(key: string, signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    await this.admit(key, signal);
    try {
      return await task();
    } finally {
      this.running--;
      const left = this.runningPerKey.get(key)! - 1;
      if (left === 0) this.runningPerKey.delete(key);
      else this.runningPerKey.set(key, left);
      this.forgetIfIdle(key);
      this.pump();
    }
  }

  /** Jobs waiting and running now (for /metrics and tests). */
  depth(): { waiting: number; running: number } {
    let waiting = 0;
    for (const jobs of this.waiting.values()) waiting += jobs.length;
    return { waiting, running: this.running };
  }

  private admit(key: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.waiting.size === 0 && this.hasRoom(key)) {
      this.take(key);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const jobs = this.waiting.get(key) ?? [];
        jobs.splice(jobs.indexOf(start), 1);
        if (jobs.length === 0) this.waiting.delete(key);
        this.forgetIfIdle(key);
        reject(
          signal.reason instanceof Error
            ? signal.reason
            : new GatewayError(499, 'client_closed_request', 'The request was cancelled while it waited for its turn.'),
        );
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (!this.lastTurn.has(key)) this.lastTurn.set(key, this.turns - 0.5);
      const jobs = this.waiting.get(key);
      if (jobs) jobs.push(start);
      else this.waiting.set(key, [start]);
      this.pump();
    });
  }

  private hasRoom(key: string): boolean {
    return this.running < this.limits.concurrency && (this.runningPerKey.get(key) ?? 0) < this.limits.perKey;
  }

  private take(key: string): void {
    this.running++;
    this.runningPerKey.set(key, (this.runningPerKey.get(key) ?? 0) + 1);
    this.lastTurn.set(key, ++this.turns);
  }

  private forgetIfIdle(key: string): void {
    if (!this.waiting.has(key) && !this.runningPerKey.has(key)) this.lastTurn.delete(key);
  }

  /** Starts waiting jobs while there is room, each time for the key whose last turn is oldest among those that may run one. */
  private pump(): void {
    while (this.running < this.limits.concurrency) {
      let next: string | undefined;
      for (const key of this.waiting.keys()) {
        if ((next === undefined || this.lastTurn.get(key)! < this.lastTurn.get(next)!) && this.hasRoom(key)) next = key;
      }
      if (next === undefined) return;
      const jobs = this.waiting.get(next)!;
      const start = jobs.shift()!;
      if (jobs.length === 0) this.waiting.delete(next);
      this.take(next);
      start();
    }
  }
}
