import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { CatalogEntry } from '../local-model-wire';

export const fetchCatalog = (): Promise<ListResponse<CatalogEntry>> => getJson('/v1/local-models/catalog');

export const catalogQueryOptions = () =>
  queryOptions({ queryKey: ['local-models', 'catalog'], queryFn: fetchCatalog, staleTime: Infinity, retry: false });

export const useCatalog = () => useQuery(catalogQueryOptions());
