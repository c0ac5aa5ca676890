/**
 * At most `perKey` operations of one key at once, refused rather than queued (an upload holds a
 * connection and its bytes while it waits).
 *
 * @example
 *   const release = uploads.tryAcquire(keyId);
 *   if (!release) throw tooManyUploads();
 *   try { await receive(); } finally { release(); }
 */
export class PerKeyLimit {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perKey: number) {}

  /** A release function when `key` has room, else undefined. */
  tryAcquire(key: string): (() => void) | undefined {
    const count = this.inFlight.get(key) ?? 0;
    if (count >= this.perKey) return undefined;
    this.inFlight.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.inFlight.get(key)! - 1;
      if (left === 0) this.inFlight.delete(key);
      else this.inFlight.set(key, left);
    };
  }
}
