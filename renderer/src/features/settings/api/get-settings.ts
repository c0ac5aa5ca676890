import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { Settings } from '../settings-types';

export const getSettings = (): Promise<Settings> => getJson('/settings');

export const settingsQueryOptions = () => queryOptions({ queryKey: ['settings'], queryFn: getSettings });

export const useSettings = () => useQuery(settingsQueryOptions());
