import { fullLoad, type Target } from './load.js';
import { threadCpuMicros } from './process-stats.js';

const ROUND_SECONDS = 2;
const MAX_ROUNDS = 20;
/** Compiled: V8's helper threads (the optimising compiler, GC) use at most this share of what the event loop uses per request. */
const SETTLED_SHARE = 0.05;

export interface WarmUp {
  rounds: number;
  seconds: number;
  /** Whether every process settled before the cap (otherwise the figures still include compiling). */
  settled: boolean;
}

/**
 * Closed-loop load on every target at once (plain and streamed together) until V8 has compiled the
 * hot paths of every process in `pids`: until their helper threads, where the optimising compiler
 * runs, are back to garbage collection alone. A single fixed warm-up run was too short on a slow
 * machine: the gateway's helper threads still used 75 to 150 µs per request (against 6 to 11 once
 * compiled) after 8 s, and the measured figures were those of code still being compiled.
 */
export async function warmUp(targets: Target[], pids: number[], concurrency: number): Promise<WarmUp> {
  const perTarget = Math.max(1, Math.floor(concurrency / targets.length));
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const before = pids.map((pid) => threadCpuMicros(pid));
    const results = await Promise.all(targets.map((target) => fullLoad(target, perTarget, ROUND_SECONDS)));
    const answered = results.every((result) => result.requests > result.errors);
    const settled = pids.every((pid, i) => {
      const after = threadCpuMicros(pid);
      return (
        after['V8 helpers'] - before[i]['V8 helpers'] <= SETTLED_SHARE * (after['event loop'] - before[i]['event loop'])
      );
    });
    if (answered && settled && round >= 2) return { rounds: round, seconds: round * ROUND_SECONDS, settled: true };
  }
  return { rounds: MAX_ROUNDS, seconds: MAX_ROUNDS * ROUND_SECONDS, settled: false };
}
