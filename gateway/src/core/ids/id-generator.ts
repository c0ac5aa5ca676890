import { randomFillSync } from 'node:crypto';

/** Random bytes drawn from the system at once: 4 KiB serve about 40 plain requests' ids. */
const POOL_BYTES = 4096;
const TIME_ORIGIN = performance.timeOrigin;
/** The microsecond within a millisecond as 3 hex digits, for each of the 1000. */
const MICROS_HEX = Array.from({ length: 1000 }, (_, micros) => micros.toString(16).padStart(3, '0'));

/**
 * The ids every request makes (its request id, its answer's id, its ledger entry's id, its trace and
 * span ids), in the same forms as `newId` and `newOrderedId`, from a pool of random bytes refilled in
 * bulk and kept as one hex string: an id is a slice of it. Built once per gateway in composition and
 * passed to what makes ids on every request. A `randomUUID` per id formats 36 characters from 16
 * pieces and was, with its slicing, a tenth of the bytes a plain request allocated (docs/performance.md).
 */
export class IdGenerator {
  private hexPool = '';
  private offset = 0;
  private readonly bytes = Buffer.allocUnsafe(POOL_BYTES);
  /** The last millisecond an ordered id was made in, and its 12 hex digits: thousands of ids a second share them. */
  private clockMillis = -1;
  private clockMillisHex = '';

  /** `digits` random lower-case hex digits (at most 2 × POOL_BYTES). */
  hex(digits: number): string {
    if (this.offset + digits > this.hexPool.length) {
      this.hexPool = randomFillSync(this.bytes).toString('hex');
      this.offset = 0;
    }
    const start = this.offset;
    this.offset = start + digits;
    return this.hexPool.slice(start, this.offset);
  }

  /** Like `newId`: the prefix and 32 random hex digits. */
  id(prefix: string): string {
    return prefix + this.hex(32);
  }

  /** Like `newOrderedId`: the prefix, 15 hex digits of the clock, then 13 random ones. */
  orderedId(prefix: string): string {
    const now = TIME_ORIGIN + performance.now();
    const millis = Math.floor(now);
    if (millis !== this.clockMillis) {
      this.clockMillis = millis;
      this.clockMillisHex = millisHex(millis);
    }
    return prefix + this.clockMillisHex + microsHex(now, millis) + this.hex(13);
  }

  /** A W3C trace id: 32 random hex digits, never all zero. */
  traceId(): string {
    const id = this.hex(32);
    return id === '00000000000000000000000000000000' ? this.traceId() : id;
  }
}

/**
 * 12 hex digits of the millisecond, then 3 of the microsecond within it, from a clock that only moves
 * forward within the process (`performance.now()` from the process's wall-clock origin): ids made
 * later in a process sort after, and ids made before this clock (12 hex digits of `Date.now()`)
 * still sort by their millisecond with the new ones.
 */
export function clockPart(): string {
  const now = TIME_ORIGIN + performance.now();
  const millis = Math.floor(now);
  return millisHex(millis) + microsHex(now, millis);
}

function millisHex(millis: number): string {
  return millis.toString(16).padStart(12, '0');
}

function microsHex(now: number, millis: number): string {
  return MICROS_HEX[Math.min(999, Math.floor((now - millis) * 1000))];
}
