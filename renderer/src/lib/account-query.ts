import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from './gateway-client';
import type { AccountSnapshot } from './gateway-types';

export const fetchAccount = (apiKey?: string): Promise<AccountSnapshot> => getJson('/account/me', { apiKey });

export const accountQueryOptions = () => queryOptions({ queryKey: ['account', 'me'], queryFn: () => fetchAccount() });

export const useAccount = () => useQuery(accountQueryOptions());
