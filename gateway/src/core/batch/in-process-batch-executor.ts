import type { BatchExecutor } from './batch-runner.js';

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

/**
 * The batch executor of a single gateway: each line is posted to the gateway's own route in process,
 * as the batch's key, so it passes authentication, limits, billing and the request log like any call.
 */
export function inProcessBatchExecutor(inject: (request: InProcessRequest) => Promise<InProcessResponse>): BatchExecutor {
  return async (endpoint, body, token, signal) => {
    const response = await inject({ method: 'POST', url: endpoint, signal, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    let parsed: unknown;
    try {
      parsed = response.json();
    } catch {
      parsed = response.body;
    }
    const retryAfter = Number(response.headers['retry-after']);
    return { status: response.statusCode, body: parsed, requestId: String(response.headers['x-request-id'] ?? ''), ...(Number.isFinite(retryAfter) ? { retryAfter } : {}) };
  };
}
