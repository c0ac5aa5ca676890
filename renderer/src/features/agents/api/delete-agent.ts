import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { agentsQueryOptions } from './list-agents';

export const deleteAgent = (id: string): Promise<{ id: string; object: 'agent'; deleted: boolean }> =>
  getJson(`/v1/agents/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey }),
  });
}
