import { gatewayFetch, jsonInit } from './gateway-client';
import { GatewayError } from './gateway-error';
import { readSseJson } from './sse-reader';

export interface StreamResponse<T> {
  frames: AsyncGenerator<T, void, undefined>;
  /** X-Request-Cost, in the account currency, when the gateway sends it. */
  cost: number | null;
  /** X-Request-ID: a streamed answer's cost is known only after its headers left, in its request log entry. */
  requestId: string | null;
}

export function readRequestCost(response: Response): number | null {
  const raw = response.headers.get('x-request-cost');
  if (raw === null || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** POSTs a JSON body with `stream: true` and yields the SSE frames of the answer. */
export async function postStream<T>(path: string, body: unknown, signal?: AbortSignal): Promise<StreamResponse<T>> {
  const response = await gatewayFetch(path, { ...jsonInit(body), signal });
  if (!response.body) throw new GatewayError({ message: 'The gateway sent an empty stream.', status: response.status });
  return {
    frames: readSseJson<T>(response.body),
    cost: readRequestCost(response),
    requestId: response.headers.get('x-request-id'),
  };
}
