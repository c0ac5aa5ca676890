import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { AccountUsage } from '../../../lib/gateway-types';

/** /account/usage accepts the key only in the X-API-Key header. */
export const getUsage = (): Promise<{ usage: AccountUsage }> => getJson('/account/usage', { keyHeader: 'x-api-key' });

export const usageQueryOptions = () => queryOptions({ queryKey: ['account', 'usage'], queryFn: getUsage });

export const useUsage = () => useQuery(usageQueryOptions());
