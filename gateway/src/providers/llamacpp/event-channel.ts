/**
 * A push-to-pull bridge: a generation callback pushes events, the consumer iterates them.
 * `first()` settles once there is something to read, so a stream can fail before its first event.
 */
export class EventChannel<T> {
  private readonly items: T[] = [];
  private closed = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly onConsumerGone: () => void) {}

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.closed = true;
    this.notify();
  }

  fail(error: unknown): void {
    if (this.closed) return;
    this.failure = { error };
    this.end();
  }

  /** Resolves when an event (or the end) is available; rejects if the producer failed before any event. */
  async first(): Promise<void> {
    while (this.items.length === 0 && !this.closed) await this.waitForChange();
    if (this.items.length === 0 && this.failure) throw this.failure.error;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    try {
      for (;;) {
        const item = this.items.shift();
        if (item !== undefined) {
          yield item;
          continue;
        }
        if (this.closed) {
          if (this.failure) throw this.failure.error;
          return;
        }
        await this.waitForChange();
      }
    } finally {
      // Runs when the consumer stops early too (break, return, thrown error): stop producing.
      if (!this.closed || this.items.length > 0) this.onConsumerGone();
    }
  }

  private waitForChange(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
