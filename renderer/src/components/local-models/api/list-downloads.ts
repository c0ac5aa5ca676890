import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import { isActive, type ModelDownload } from '../local-model-wire';

export const fetchDownloads = (): Promise<ListResponse<ModelDownload>> => getJson('/v1/local-models/downloads');

/** Polled every half second while a download is moving, so progress shows live. */
export const downloadsQueryOptions = () =>
  queryOptions({
    queryKey: ['local-models', 'downloads'],
    queryFn: fetchDownloads,
    retry: false,
    refetchInterval: (query) => (query.state.data?.data.some((download) => isActive(download.status)) ? 500 : false),
  });

export const useDownloads = () => useQuery(downloadsQueryOptions());
