import { useQueryClient } from '@tanstack/react-query';
import { modelsQueryOptions } from '../../../lib/models-query';
import { settingsQueryOptions } from './get-settings';

/** Route and provider changes also change what /models lists: both are read again. */
export function useInvalidateRoutes() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey }),
    ]);
}
