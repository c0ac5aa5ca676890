import { queryOptions, useQuery } from '@tanstack/react-query';
import { gatewayFetch } from '../../../lib/gateway-client';

export const getFileText = async (id: string): Promise<string> =>
  (await gatewayFetch(`/v1/files/${encodeURIComponent(id)}/content`)).text();

/** A result file never changes once written. */
export const fileTextQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['files', 'text', id], queryFn: () => getFileText(id), staleTime: Infinity });

export const useFileText = (id: string) => useQuery(fileTextQueryOptions(id));
