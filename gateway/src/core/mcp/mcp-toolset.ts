import type { McpTool } from '../../wire/mcp-server-schemas.js';
import type { McpCaller, McpService, McpSession } from './mcp-service.js';
import type { LoopTool } from './tool-loop.js';

/** A server a request offers its model: which of its tools, and which of those wait for approval. */
export interface McpServerChoice {
  /** The server as the request names it: a configured server's id unless `url` is given. */
  label: string;
  url?: string;
  headers?: Record<string, string>;
  allows(tool: McpTool): boolean;
  needsApproval(tool: McpTool): boolean;
}

/** The MCP tools of one request, ready for the tool loop; `close` ends the request's own connections. */
export interface McpToolset {
  tools: LoopTool[];
  /** Each server's offered tools, in the request's order. */
  servers: { label: string; tools: McpTool[] }[];
  close(): Promise<void>;
}

/** A function name every chat API accepts: letters, digits, `_` and `-`, at most 64 characters. */
function functionName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/**
 * Opens the servers a request names (configured ones the caller may use, or its own URLs) and lists
 * their tools in parallel; a server that cannot be used or reached fails the request before any
 * model call (404 `mcp_server_not_found`, 502 `mcp_server_unavailable`). A tool name two servers
 * share is offered to the model as `<label>__<name>`.
 */
export async function openMcpToolset(
  mcp: McpService,
  choices: readonly McpServerChoice[],
  caller: McpCaller,
): Promise<McpToolset> {
  const sessions: McpSession[] = [];
  const close = async () => {
    await Promise.all(sessions.map((session) => session.close()));
  };
  try {
    for (const choice of choices)
      sessions.push(
        choice.url
          ? mcp.connectUrl(choice.label, choice.url, choice.headers, caller)
          : mcp.session(choice.label, caller),
      );
    const listed = await Promise.all(sessions.map((session) => session.listTools()));
    const names = new Set<string>();
    const tools: LoopTool[] = [];
    const servers = choices.map((choice, index) => {
      const session = sessions[index]!;
      const offered = listed[index]!.filter((tool) => choice.allows(tool));
      for (const tool of offered) {
        let name = functionName(tool.name);
        if (names.has(name)) name = functionName(`${choice.label}__${tool.name}`);
        names.add(name);
        tools.push({
          name,
          server: choice.label,
          tool,
          needsApproval: choice.needsApproval(tool),
          call: (args, signal) => session.callTool(tool.name, args, { signal }),
        });
      }
      return { label: choice.label, tools: offered };
    });
    return { tools, servers, close };
  } catch (error) {
    await close();
    throw error;
  }
}
