import { useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';

export const getRequest = (id: string): Promise<RequestLogEntry> =>
  getJson(`/console/requests/${encodeURIComponent(id)}`);

/**
 * The whole entry of one logged request. The list and the live feed carry another instance's requests
 * (team mode) without headers and bodies; this reads them from the shared store.
 */
export const useRequestDetail = (id: string | null) =>
  useQuery({
    queryKey: ['console', 'request', id],
    queryFn: () => getRequest(id!),
    enabled: id !== null,
    staleTime: Infinity,
    retry: false,
  });
