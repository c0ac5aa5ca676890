/** Runs one request of a batch (or of an eval run) through the gateway's own pipeline (auth, limits, billing, logging). */
export type BatchExecutor = (
  endpoint: string,
  body: Record<string, unknown>,
  token: string,
  signal: AbortSignal,
) => Promise<BatchExecution>;

/** The answer of one request run in process. */
export interface BatchExecution {
  status: number;
  body: unknown;
  requestId: string;
  retryAfter?: number;
  /** X-Request-Cost: what the request was billed, in the account's currency (null when nothing was charged). */
  cost: number | null;
  /** How long the gateway took to answer it, in milliseconds. */
  latencyMs: number;
}
