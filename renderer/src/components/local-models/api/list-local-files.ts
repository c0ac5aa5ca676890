import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { LocalModelFile } from '../local-model-wire';

export const fetchLocalFiles = (): Promise<ListResponse<LocalModelFile>> => getJson('/v1/local-models/files');

export const localFilesQueryOptions = () =>
  queryOptions({ queryKey: ['local-models', 'files'], queryFn: fetchLocalFiles, retry: false });

export const useLocalFiles = () => useQuery(localFilesQueryOptions());
