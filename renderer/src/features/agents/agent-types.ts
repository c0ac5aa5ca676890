import type { AgentTool, BUILT_IN_AGENT_TOOLS } from '../../../../gateway/src/core/agents/agent-tools';
import type { AgentRecord } from '../../../../gateway/src/store/agents-repository';

export type { AgentTool };
export type BuiltInTool = (typeof BUILT_IN_AGENT_TOOLS)[number];

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

/** The built-in tools an agent can name (stored; the gateway runs none of them). */
export const BUILT_IN_TOOLS: readonly BuiltInTool[] = ['web_search', 'web_search_premium', 'code_interpreter', 'image_generation', 'document_library'];
