import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { Agent, AgentFields } from '../agent-types';
import { agentsQueryOptions } from './list-agents';

export const createAgent = (fields: AgentFields): Promise<Agent> => postJson('/v1/agents', fields);

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey }),
  });
}
