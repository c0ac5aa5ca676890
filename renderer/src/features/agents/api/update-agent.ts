import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { Agent, AgentFields } from '../agent-types';
import { agentsQueryOptions } from './list-agents';

export const updateAgent = ({ id, fields }: { id: string; fields: Partial<AgentFields> }): Promise<Agent> =>
  sendJson('PATCH', `/v1/agents/${encodeURIComponent(id)}`, fields);

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey }),
  });
}
