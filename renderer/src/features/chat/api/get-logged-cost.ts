import { useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { GatewayError } from '../../../lib/gateway-error';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';

/** What a request was billed, from its request log entry (Owner only). */
export const getLoggedCost = async (requestId: string): Promise<number | null> =>
  (await getJson<RequestLogEntry>(`/console/requests/${encodeURIComponent(requestId)}`)).cost;

/**
 * The cost of a streamed answer, whose X-Request-Cost could not be sent (the headers left before the
 * usage was known). The entry is written just after the stream ends, so a 404 is asked again a few
 * times; a Member (403) has no request log and the cost stays unknown.
 */
export const useLoggedCost = (requestId: string | null | undefined) =>
  useQuery({
    queryKey: ['console', 'request', requestId, 'cost'],
    queryFn: () => getLoggedCost(requestId!),
    enabled: !!requestId,
    staleTime: Infinity,
    retry: (failures, error) => failures < 5 && error instanceof GatewayError && error.status === 404,
    retryDelay: 300,
  });
