import { Value } from '@sinclair/typebox/value';
import type { ToolDefinition } from '../../wire/tool-schemas.js';
import { BUILT_IN_AGENT_TOOLS, McpConnectorTool, type AgentTool } from '../../wire/agent-tool-schemas.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { McpServerChoice } from '../mcp/mcp-toolset.js';

/**
 * The tools an agent or conversation may carry: function tools, and connectors to the gateway's MCP
 * servers (whether the key may use the server is checked when a turn runs). Any other built-in tool
 * is a 422 naming it, since the gateway cannot run it and storing it would promise what no request
 * here keeps.
 */
export function agentTools(tools: readonly { type: string }[], param = 'tools'): AgentTool[] {
  tools.forEach((tool, index) => {
    if (tool.type === 'function') return;
    if (tool.type === 'connector' && Value.Check(McpConnectorTool, tool)) return;
    if (tool.type === 'connector')
      throw new GatewayError(
        422,
        'unsupported_tool',
        'A connector tool names one of the gateway\'s MCP servers: {"type": "connector", "connector_id": "<server id>", "tool_configuration"?: {"include", "exclude", "requires_confirmation"}} (lists of tool names).',
        { param: `${param}[${index}]` },
      );
    const builtIn = (BUILT_IN_AGENT_TOOLS as readonly string[]).includes(tool.type);
    throw new GatewayError(
      422,
      'unsupported_tool',
      builtIn
        ? `Built-in tool "${tool.type}" is not available on this gateway (nothing here runs it); declare a function tool and run it in your code, or a connector to one of the gateway's MCP servers.`
        : `Unknown tool type "${tool.type}"; use function tools, or connectors to the gateway's MCP servers.`,
      { param: `${param}[${index}].type` },
    );
  });
  return tools as AgentTool[];
}

/** The function tools among an agent's tools: what the client runs. */
export function functionTools(tools: readonly unknown[]): ToolDefinition[] {
  return (tools as AgentTool[]).filter((tool): tool is ToolDefinition => tool.type === 'function');
}

/** The MCP servers an agent's connector tools name, as the tool loop offers them. */
export function connectorServers(tools: readonly unknown[]): McpServerChoice[] {
  return (tools as AgentTool[])
    .filter((tool): tool is McpConnectorTool => tool.type === 'connector')
    .map(({ connector_id, tool_configuration: config }) => ({
      label: connector_id,
      allows: (tool) =>
        (!config?.include || config.include.includes(tool.name)) && !config?.exclude?.includes(tool.name),
      needsApproval: (tool) =>
        config?.requires_confirmation
          ? config.requires_confirmation.includes(tool.name)
          : tool.require_approval === 'always',
    }));
}
