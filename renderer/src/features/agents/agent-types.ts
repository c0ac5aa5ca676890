import type { AgentTool } from '../../../../gateway/src/core/agents/agent-tools';
import type { AgentRecord } from '../../../../gateway/src/store/agents-repository';

export type { AgentTool };

/** An agent as `/v1/agents` returns it. */
export interface Agent extends Pick<AgentRecord, 'id' | 'name' | 'model' | 'instructions' | 'description'> {
  object: 'agent';
  created: number;
  tools: AgentTool[];
}

export interface AgentFields {
  name: string;
  model: string;
  instructions: string | null;
  description: string | null;
  tools: AgentTool[];
}
