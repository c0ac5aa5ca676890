import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';

export const listRequests = (): Promise<ListResponse<RequestLogEntry>> => getJson('/console/requests?limit=500');

export const requestsQueryOptions = () =>
  queryOptions({ queryKey: ['console', 'requests'], queryFn: listRequests, staleTime: Infinity });

export const useRequests = () => useQuery(requestsQueryOptions());
