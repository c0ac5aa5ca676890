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
}
