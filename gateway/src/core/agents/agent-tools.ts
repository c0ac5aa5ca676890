import type { ToolDefinition } from '../../wire/tool-schemas.js';

/** Tools an agent may carry: functions, and the built-in tool names Mistral agents use (stored, not executed here). */
export const BUILT_IN_AGENT_TOOLS = ['web_search', 'web_search_premium', 'code_interpreter', 'image_generation', 'document_library'] as const;

export type AgentTool = ToolDefinition | { type: (typeof BUILT_IN_AGENT_TOOLS)[number] };

export function functionTools(tools: unknown[]): ToolDefinition[] {
  return tools.filter((tool): tool is ToolDefinition => (tool as { type?: string }).type === 'function');
}
