import { Type, type Static } from '@sinclair/typebox';
import {
  McpAllowedKeys,
  McpServerFields,
  McpServerId,
  McpServerView,
  McpToolResultView,
} from '../../wire/mcp-server-schemas.js';

const SkippedTool = Type.Object({ name: Type.String(), reason: Type.String() });

export const McpServerList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      ...McpServerView.properties,
      skipped_tools: Type.Optional(
        Type.Array(SkippedTool, { description: 'Tools the server listed whose definition does not parse: left out' }),
      ),
    }),
  ),
});

export const McpServerParams = Type.Object({ id: McpServerId });
export const McpToolParams = Type.Object({ id: McpServerId, tool: Type.String({ minLength: 1, maxLength: 256 }) });

export const McpToolCallBody = Type.Object(
  {
    arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "The tool's arguments" })),
  },
  { additionalProperties: false },
);

export { McpToolResultView };

export const McpServerSettingView = Type.Object({
  id: Type.String(),
  transport: Type.Union([Type.Literal('stdio'), Type.Literal('http')]),
  command: Type.Optional(Type.String()),
  args: Type.Optional(Type.Array(Type.String())),
  cwd: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  env_names: Type.Array(Type.String(), {
    description: 'Names of the environment variables set (values are never shown)',
  }),
  header_names: Type.Array(Type.String(), { description: 'Names of the headers sent (values are never shown)' }),
  allowed_keys: McpAllowedKeys,
  timeout_ms: Type.Integer(),
  max_output_chars: Type.Integer(),
  source: Type.Union([Type.Literal('config'), Type.Literal('console')]),
  in_config: Type.Boolean(),
  removed: Type.Boolean({ description: 'A config-file server removed in the console: not offered until reset' }),
});

export const McpServerSettingList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(McpServerSettingView),
});

export const McpServerBody = Type.Object(McpServerFields, { additionalProperties: false });
export const NewMcpServerBody = Type.Object(
  { id: McpServerId, ...McpServerBody.properties },
  { additionalProperties: false },
);

export const McpJsonBody = Type.Object(
  { mcpServers: Type.Record(Type.String(), Type.Unknown()) },
  { description: 'An mcp.json as LM Studio and Claude Desktop write it', additionalProperties: true },
);

export const McpServerDeleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

/** The MCP API's answers and bodies as the console reads and sends them. */
export type McpServerListView = Static<typeof McpServerList>;
export type McpServerSettingListView = Static<typeof McpServerSettingList>;
export type McpServerSettingViewType = Static<typeof McpServerSettingView>;
export type McpServerBodyInput = Static<typeof McpServerBody>;
export type NewMcpServerBodyInput = Static<typeof NewMcpServerBody>;
export type McpToolResultBody = Static<typeof McpToolResultView>;
