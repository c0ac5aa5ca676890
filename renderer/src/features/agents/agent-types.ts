import type { Agent } from '../../../../gateway/src/api/agents/agent-schemas';
import type { AgentTool, BuiltInAgentTool } from '../../../../gateway/src/wire/agent-tool-schemas';

export type { Agent, AgentTool };
export type BuiltInTool = BuiltInAgentTool;

/** What the agent form sends on create and update. */
export type AgentFields = Pick<Agent, 'name' | 'model' | 'instructions' | 'description' | 'tools'>;

/** The gateway's built-in tool names (wire/agent-tool-schemas.ts); tsc fails here when that list changes. */
const BUILT_IN_TOOL_NAMES = { web_search: true, web_search_premium: true, code_interpreter: true, image_generation: true, document_library: true } as const satisfies Record<BuiltInTool, true>;

/** The built-in tools an agent can name (stored; the gateway runs none of them). */
export const BUILT_IN_TOOLS = Object.keys(BUILT_IN_TOOL_NAMES) as BuiltInTool[];
