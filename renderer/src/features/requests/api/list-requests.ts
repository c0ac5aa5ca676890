import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { RequestEntry } from '../request-entry';

export const listRequests = (): Promise<ListResponse<RequestEntry>> => getJson('/console/requests');

export const requestsQueryOptions = () => queryOptions({ queryKey: ['console', 'requests'], queryFn: listRequests, staleTime: Infinity });

export const useRequests = () => useQuery(requestsQueryOptions());
