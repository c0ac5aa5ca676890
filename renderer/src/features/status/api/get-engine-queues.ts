import { useQuery } from '@tanstack/react-query';
import { gatewayFetch } from '../../../lib/gateway-client';
import { engineQueues } from '../engine-queues';

/** Queue depths come from /metrics (an Owner key or the metrics token, on loopback too): a Member's 403 shows no table. */
export const useEngineQueues = () =>
  useQuery({
    queryKey: ['status', 'engine-queues'],
    queryFn: async () => engineQueues(await (await gatewayFetch('/metrics')).text()),
    refetchInterval: 5_000,
    retry: false,
  });
