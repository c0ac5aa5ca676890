import type { ToolDefinition } from '../../wire/tool-schemas.js';
import { BUILT_IN_AGENT_TOOLS } from '../../wire/agent-tool-schemas.js';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * The function tools of `tools`; a built-in tool (or any other kind) is a 422 naming it, since the
 * gateway cannot run it and storing it would promise what no request here keeps.
 */
export function functionToolsOnly(tools: readonly { type: string }[], param = 'tools'): ToolDefinition[] {
  tools.forEach((tool, index) => {
    if (tool.type === 'function') return;
    const builtIn = (BUILT_IN_AGENT_TOOLS as readonly string[]).includes(tool.type);
    throw new GatewayError(
      422,
      'unsupported_tool',
      builtIn
        ? `Built-in tool "${tool.type}" is not available on this gateway (nothing here runs it); declare a function tool and run it in your code.`
        : `Unknown tool type "${tool.type}"; only function tools are supported.`,
      { param: `${param}[${index}].type` },
    );
  });
  return tools as ToolDefinition[];
}
