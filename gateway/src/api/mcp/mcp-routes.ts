import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../_shared/common-schemas.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import type { McpService } from '../../core/mcp/mcp-service.js';
import {
  McpJsonBody,
  McpServerBody,
  McpServerDeleted,
  McpServerList,
  McpServerParams,
  McpServerSettingList,
  McpServerSettingView,
  McpToolCallBody,
  McpToolParams,
  McpToolResultView,
  NewMcpServerBody,
} from './mcp-schemas.js';

const owner = { auth: 'owner' as const };
const tags = ['mcp'];

/**
 * The MCP servers the gateway can reach (state and tools) for any key, as far as it may use them;
 * Owner-only: a tool tried by hand, and the servers' settings.
 */
export const mcpRoutes: FastifyPluginAsyncTypebox<{ mcp: McpService }> = async (app, { mcp }) => {
  app.get(
    '/v1/mcp/servers',
    {
      schema: {
        tags,
        summary: 'MCP servers this key may use, with their state and tools',
        description:
          "An Owner sees every server; another key the servers whose allowed_keys name it (or 'all'), without the reason a failed one failed. A stdio server not started yet is started by this call (all of them in parallel).",
        response: { 200: McpServerList, ...errorResponses },
      },
    },
    async (request) => ({
      object: 'list' as const,
      data: await mcp.listServers({ id: request.apiKey!.id, role: request.apiKey!.role }),
    }),
  );

  app.post(
    '/v1/mcp/servers/:id/tools/:tool/call',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Call a tool with arguments (an Owner trying it)',
        description:
          "200 with the tool's result, or, when the server failed, was too slow or died, outcome and is_error saying so; 404 for an unknown server or tool. A client that disconnects cancels the call.",
        params: McpToolParams,
        body: McpToolCallBody,
        response: { 200: McpToolResultView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id, tool } = request.params;
      const result = await mcp.callTool(id, tool, request.body.arguments ?? {}, {
        caller: { id: request.apiKey!.id, role: request.apiKey!.role },
        signal: clientAbortSignal(reply),
      });
      return {
        object: 'mcp.tool_result' as const,
        server: id,
        tool,
        outcome: result.outcome,
        is_error: result.isError,
        content: result.content,
        ...(result.structuredContent ? { structured_content: result.structuredContent } : {}),
        duration_ms: result.durationMs,
        truncated: result.truncated,
      };
    },
  );

  app.get(
    '/settings/mcp-servers',
    {
      config: { ...owner, unlogged: true },
      schema: {
        tags,
        summary: 'MCP server entries as the console edits them (secrets by name only)',
        response: { 200: McpServerSettingList, ...errorResponses },
      },
    },
    async () => ({ object: 'list' as const, data: mcp.settings() }),
  );

  app.post(
    '/settings/mcp-servers',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Add an MCP server (kept across restarts)',
        body: NewMcpServerBody,
        response: { 200: McpServerSettingView, ...errorResponses },
      },
    },
    async (request) => {
      const { id, ...input } = request.body;
      return mcp.add(id, input);
    },
  );

  app.post(
    '/settings/mcp-servers/import',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Add the servers of an mcp.json ({"mcpServers": {...}}); an existing id is replaced',
        body: McpJsonBody,
        response: { 200: McpServerSettingList, ...errorResponses },
      },
    },
    async (request) => ({ object: 'list' as const, data: await mcp.importMcpJson(request.body) }),
  );

  app.put(
    '/settings/mcp-servers/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Replace an MCP server entry (an empty env or header value keeps the stored one)',
        params: McpServerParams,
        body: McpServerBody,
        response: { 200: McpServerSettingView, ...errorResponses },
      },
    },
    async (request) => mcp.edit(request.params.id, request.body),
  );

  app.delete(
    '/settings/mcp-servers/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Remove an MCP server (its process stops; a config-file server stays removed until reset)',
        params: McpServerParams,
        response: { 200: McpServerDeleted, ...errorResponses },
      },
    },
    async (request) => {
      await mcp.remove(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );

  app.post(
    '/settings/mcp-servers/:id/reset',
    {
      config: owner,
      schema: {
        tags,
        summary: "Undo the console's change to a config-file MCP server",
        params: McpServerParams,
        response: { 200: McpServerSettingView, ...errorResponses },
      },
    },
    async (request) => mcp.reset(request.params.id),
  );
};
