import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchExecution, BatchExecutor } from './batch-executor.js';

const MAX_RATE_LIMIT_WAITS = 5;
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;
/** The longest a line may wait on 429s on top of its requests (for the queue's expiry of a line). */
export const MAX_RATE_LIMIT_WAIT_MS = MAX_RATE_LIMIT_WAITS * MAX_RATE_LIMIT_WAIT_SECONDS * 1000;

/**
 * Runs one queued request (never streamed), waiting out the key's 429s, and 503s that say when to
 * come back (an engine still warming up), as `Retry-After` says (at most 5 waits of 60 s): work in
 * the background should not fail because its key is busy or a local engine is starting. The
 * answer, or undefined when `stopping` cut a wait short (the line runs again later).
 */
export async function executeWithRateLimitWaits(
  execute: BatchExecutor,
  request: { endpoint: string; body: Record<string, unknown>; token: string },
  signal: AbortSignal,
  stopping: AbortSignal,
): Promise<BatchExecution | undefined> {
  for (let attempt = 0; ; attempt++) {
    const result = await execute(request.endpoint, { ...request.body, stream: false }, request.token, signal);
    const wait = result.retryAfter ?? 1;
    const comeBack = result.status === 429 || (result.status === 503 && result.retryAfter !== undefined);
    if (!comeBack || attempt >= MAX_RATE_LIMIT_WAITS || wait > MAX_RATE_LIMIT_WAIT_SECONDS) return result;
    if (stopping.aborted) return undefined;
    await sleep(wait * 1000, undefined, { signal: AbortSignal.any([stopping, signal]) });
  }
}
