import { useQueryClient } from '@tanstack/react-query';
import { mcpServersQueryOptions } from '../../../lib/mcp-servers-query';
import { mcpSettingsQueryOptions } from './get-mcp-settings';

/** A change to an entry changes its state and tools too: both lists are read again. */
export function useInvalidateMcp() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: mcpSettingsQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: mcpServersQueryOptions().queryKey }),
    ]);
}
