import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse, PublicKey } from '../../../lib/gateway-types';

export const listKeys = (): Promise<ListResponse<PublicKey>> => getJson('/account/keys');

export const keysQueryOptions = () => queryOptions({ queryKey: ['account', 'keys'], queryFn: listKeys });

export const useKeys = () => useQuery(keysQueryOptions());
