/** How big a key's leases are (team mode's rate and spend leases) and when the last one was asked for. */
export interface LeaseSizing {
  size: number;
  lastAskedAt: number;
}

/**
 * The size of the next lease, asked for at `askedAt`: twice the last when the key asks again within
 * a lease's time (its traffic uses leases up), back to one after a pause of five leases' time (a key
 * called now and then takes one at a time, the exact check of each request), else the same; at most `max`.
 */
export function nextLeaseSize(sizing: LeaseSizing, askedAt: number, leaseMs: number, max: number): number {
  const gap = askedAt - sizing.lastAskedAt;
  if (gap < leaseMs) sizing.size = Math.min(sizing.size * 2, max);
  else if (gap > 5 * leaseMs) sizing.size = 1;
  sizing.size = Math.max(1, Math.min(sizing.size, max));
  sizing.lastAskedAt = askedAt;
  return sizing.size;
}
