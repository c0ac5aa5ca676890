import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { Agent } from '../agent-types';

export const listAgents = (): Promise<ListResponse<Agent>> => getJson('/v1/agents?limit=100');

export const agentsQueryOptions = () => queryOptions({ queryKey: ['agents'], queryFn: listAgents });

export const useAgents = () => useQuery(agentsQueryOptions());
