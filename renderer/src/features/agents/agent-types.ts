import type { Agent } from '../../../../gateway/src/api/agents/agent-schemas';
import type { AgentTool } from '../../../../gateway/src/wire/agent-tool-schemas';

export type { Agent, AgentTool };

/** What the agent form sends on create and update. */
export type AgentFields = Pick<Agent, 'name' | 'model' | 'instructions' | 'description' | 'tools'>;
