import { queryOptions, useQuery } from '@tanstack/react-query';
import { gatewayFetch } from '../../../lib/gateway-client';
import { GatewayError } from '../../../lib/gateway-error';
import type { GatewayStatus } from '../../../lib/gateway-types';

/** /status answers 503 with a body while warming up; that is a state to show, not an error. */
export async function fetchStatus(): Promise<GatewayStatus> {
  try {
    return (await (await gatewayFetch('/status')).json()) as GatewayStatus;
  } catch (error) {
    if (error instanceof GatewayError && error.status === 503) {
      const starting = { state: 'loading' as const, reason: 'the gateway is starting' };
      return {
        status: 'starting',
        response_ms: 0,
        version: '',
        instance_id: '',
        uptime_seconds: 0,
        checks: { asr: false, ocr: false },
        capabilities: { ocr: starting, transcription: starting },
        providers: [],
      };
    }
    throw error;
  }
}

export const statusQueryOptions = () =>
  queryOptions({ queryKey: ['status'], queryFn: fetchStatus, refetchInterval: 5_000, retry: false });

export const useGatewayStatus = () => useQuery(statusQueryOptions());
