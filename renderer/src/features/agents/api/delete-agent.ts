import { useMutation, useQueryClient } from '@tanstack/react-query';
import { gatewayFetch } from '../../../lib/gateway-client';
import { agentsQueryOptions } from './list-agents';

/** Deletes an agent (the gateway answers 204, no body). */
export const deleteAgent = async (id: string): Promise<void> => {
  await gatewayFetch(`/v1/agents/${encodeURIComponent(id)}`, { method: 'DELETE' });
};

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey }),
  });
}
