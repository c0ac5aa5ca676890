import type { ToolDefinition } from '../../wire/tool-schemas.js';

export function functionTools(tools: unknown[]): ToolDefinition[] {
  return tools.filter((tool): tool is ToolDefinition => (tool as { type?: string }).type === 'function');
}
