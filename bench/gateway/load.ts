import { Pool } from 'undici';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  /** Milliseconds, request start to the last byte of the answer. */
  latencies: number[];
  /** Milliseconds, request start to the answer's headers (for a stream: its first event). */
  firstBytes: number[];
}

export interface Target {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

interface Timing {
  total: number;
  firstByte: number;
}

async function once(pool: Pool, target: Target): Promise<Timing> {
  const started = process.hrtime.bigint();
  const response = await pool.request({
    method: 'POST',
    path: target.path,
    headers: target.headers,
    body: target.body,
  });
  const firstByte = Number(process.hrtime.bigint() - started) / 1e6;
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
  return { total: Number(process.hrtime.bigint() - started) / 1e6, firstByte };
}

const emptyResult = (): LoadResult => ({ requests: 0, errors: 0, seconds: 0, latencies: [], firstBytes: [] });

/** Open-loop load: requests started at a fixed rate whatever the latency, for `seconds`. */
export async function fixedRate(target: Target, rate: number, seconds: number): Promise<LoadResult> {
  const pool = new Pool(target.origin, { connections: 64, pipelining: 1 });
  const result = await atRate(pool, target, rate, seconds);
  await pool.close();
  return result;
}

/**
 * Open-loop load on each target in turn, `sliceSeconds` at a time, until each had `seconds`: every
 * target meets the same stretches of a busy machine, where whole runs one after the other each meet
 * their own. Each target keeps its connections from slice to slice; which goes first alternates.
 */
export async function fixedRateInTurns(
  targets: Target[],
  rate: number,
  seconds: number,
  sliceSeconds = 0.5,
): Promise<LoadResult[]> {
  const pools = targets.map((target) => new Pool(target.origin, { connections: 64, pipelining: 1 }));
  const results = targets.map(emptyResult);
  const slices = Math.max(1, Math.round(seconds / sliceSeconds));
  for (let slice = 0; slice < slices; slice++) {
    const order = targets.map((_, i) => (slice % 2 ? targets.length - 1 - i : i));
    for (const i of order) {
      const part = await atRate(pools[i], targets[i], rate, seconds / slices);
      results[i].requests += part.requests;
      results[i].errors += part.errors;
      results[i].seconds += part.seconds;
      results[i].latencies.push(...part.latencies);
      results[i].firstBytes.push(...part.firstBytes);
    }
  }
  await Promise.all(pools.map((pool) => pool.close()));
  return results;
}

async function atRate(pool: Pool, target: Target, rate: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      once(pool, target).then(
        (timing) => void (latencies.push(timing.total), firstBytes.push(timing.firstByte)),
        () => void errors++,
      ),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  return { requests: latencies.length, errors, seconds: elapsed, latencies, firstBytes };
}

/** Closed-loop load: `concurrency` clients sending back to back for `seconds`. */
export async function fullLoad(target: Target, concurrency: number, seconds: number): Promise<LoadResult> {
  const pool = new Pool(target.origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        try {
          const timing = await once(pool, target);
          latencies.push(timing.total);
          firstBytes.push(timing.firstByte);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: latencies.length, errors, seconds: elapsed, latencies, firstBytes };
}

/**
 * One request at a time, the targets taking turns (`rounds` requests each): every target's requests
 * meet the same moments of a busy machine, so their latencies compare where runs one after the other
 * (each meeting other load) do not.
 */
export async function takingTurns(targets: Target[], rounds: number): Promise<LoadResult[]> {
  const pools = targets.map((target) => new Pool(target.origin, { connections: 1, pipelining: 1 }));
  const results = targets.map(emptyResult);
  const started = performance.now();
  for (let round = 0; round < rounds; round++)
    for (const [i, target] of targets.entries()) {
      try {
        const timing = await once(pools[i], target);
        results[i].latencies.push(timing.total);
        results[i].firstBytes.push(timing.firstByte);
        results[i].requests++;
      } catch {
        results[i].errors++;
      }
    }
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(pools.map((pool) => pool.close()));
  for (const result of results) result.seconds = elapsed;
  return results;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Exactly `count` requests, `concurrency` at a time (for counting what a number of requests costs). */
export async function fixedCount(target: Target, concurrency: number, count: number): Promise<LoadResult> {
  const pool = new Pool(target.origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        try {
          const timing = await once(pool, target);
          latencies.push(timing.total);
          firstBytes.push(timing.firstByte);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: latencies.length, errors, seconds: elapsed, latencies, firstBytes };
}
