import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';

export const listRequests = (query = 'limit=500'): Promise<ListResponse<RequestLogEntry>> =>
  getJson(`/console/requests?${query}`);

export const requestsQueryOptions = () =>
  queryOptions({ queryKey: ['console', 'requests'], queryFn: () => listRequests(), staleTime: Infinity });

export const useRequests = () => useQuery(requestsQueryOptions());

/** How often a search (a trace, the slowest first) is asked again while the list follows the log. */
const SEARCH_REFRESH_MS = 5_000;

/**
 * The list as the gateway answers `query` (request-view.ts `requestSearch`): the requests of a trace,
 * or the slowest of the whole log, which the live list (the newest 500) cannot answer alone.
 */
export const useRequestSearch = (query: string | null, following: boolean) =>
  useQuery({
    queryKey: ['console', 'requests', 'search', query],
    queryFn: () => listRequests(query!),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    refetchInterval: following ? SEARCH_REFRESH_MS : false,
  });
