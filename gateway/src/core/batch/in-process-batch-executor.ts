import { randomUUID } from 'node:crypto';
import type { BatchExecutor } from './batch-executor.js';

/**
 * The header whose random id ties a batch line's in-process request to its abort: Fastify's inject
 * cannot abort a request whose body was read, so the route looks its line's signal up by this id.
 * An id from outside matches nothing.
 */
export const BATCH_LINE_HEADER = 'x-switchyard-batch-line';

/** A request handed to the gateway's own routes without a socket (app.ts passes Fastify's `inject`). */
export interface InProcessRequest {
  method: 'POST';
  url: string;
  signal: AbortSignal;
  headers: Record<string, string>;
  payload: string;
}

export interface InProcessResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json(): unknown;
}

/** The batch executor of a single gateway, and the aborts of the lines it is running. */
export interface InProcessBatchExecutor {
  run: BatchExecutor;
  /**
   * For a batch line's request (`this`): the signal that aborts when the line is stopped (its batch
   * cancelled or expired). It reads `this` so that it can serve as a request property's getter.
   */
  lineSignal(this: { headers: Record<string, string | string[] | undefined> }): AbortSignal | undefined;
}

/**
 * Each line is posted to the gateway's own route in process, as the batch's key, so it passes
 * authentication, limits, billing and the request log like any call.
 */
export function inProcessBatchExecutor(
  inject: (request: InProcessRequest) => Promise<InProcessResponse>,
): InProcessBatchExecutor {
  const lineAborts = new Map<string, AbortSignal>();
  return {
    lineSignal() {
      const id = this.headers[BATCH_LINE_HEADER];
      return typeof id === 'string' ? lineAborts.get(id) : undefined;
    },
    async run(endpoint, body, token, signal) {
      const line = randomUUID();
      lineAborts.set(line, signal);
      const startedAt = performance.now();
      const response = await inject({
        method: 'POST',
        url: endpoint,
        signal,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', [BATCH_LINE_HEADER]: line },
        payload: JSON.stringify(body),
      }).finally(() => lineAborts.delete(line));
      let parsed: unknown;
      try {
        parsed = response.json();
      } catch {
        parsed = response.body;
      }
      const latencyMs = performance.now() - startedAt;
      const retryAfter = Number(response.headers['retry-after']);
      const cost = Number(response.headers['x-request-cost'] ?? Number.NaN);
      return {
        status: response.statusCode,
        body: parsed,
        requestId: String(response.headers['x-request-id'] ?? ''),
        cost: Number.isFinite(cost) ? cost : null,
        latencyMs,
        ...(Number.isFinite(retryAfter) ? { retryAfter } : {}),
      };
    },
  };
}
