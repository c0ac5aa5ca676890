import { useQuery } from '@tanstack/react-query';
import { gatewayFetch } from '../../../lib/gateway-client';

/** GET /metrics with the console's key: an Owner key reads it; a Member's gets the gateway's 403. */
export const getMetricsText = async (): Promise<string> => (await gatewayFetch('/metrics')).text();

export const useMetricsText = () =>
  useQuery({ queryKey: ['status', 'metrics-text'], queryFn: getMetricsText, retry: false });
