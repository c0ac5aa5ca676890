import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';

/** The recent traffic the status charts are drawn from (Owner only: a Member gets 403 and no chart). */
export const fetchRecentTraffic = (): Promise<ListResponse<RequestLogEntry>> =>
  getJson('/console/requests?limit=2000&exclude_console=true');

export const recentTrafficQueryOptions = () =>
  queryOptions({ queryKey: ['status', 'traffic'], queryFn: fetchRecentTraffic, refetchInterval: 15_000 });

export const useRecentTraffic = (enabled: boolean) => useQuery({ ...recentTrafficQueryOptions(), enabled });
