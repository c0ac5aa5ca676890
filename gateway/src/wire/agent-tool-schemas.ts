import { Type, type Static } from '@sinclair/typebox';

/** Built-in tools Mistral's agents and conversations can name. Nothing here runs them, so they are refused with 422 `unsupported_tool`, never stored. */
export const BUILT_IN_AGENT_TOOLS = [
  'web_search',
  'web_search_premium',
  'code_interpreter',
  'image_generation',
  'document_library',
  'connector',
] as const;
export type BuiltInAgentTool = (typeof BUILT_IN_AGENT_TOOLS)[number];

const FunctionTool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
      description: Type.Optional(Type.String()),
      parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: true },
  ),
});

const NameList = Type.Union([Type.Array(Type.String({ minLength: 1 }), { maxItems: 500 }), Type.Null()]);

/**
 * Mistral's connector tool naming one of the gateway's MCP servers (an `mcp_servers` id): the model
 * may call its tools (`include` only those, `exclude` these) and the gateway runs the calls;
 * `requires_confirmation` names the tools whose calls wait for the client's confirmation (absent:
 * every tool the server does not annotate read-only).
 */
export const McpConnectorTool = Type.Object({
  type: Type.Literal('connector'),
  connector_id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' }),
  tool_configuration: Type.Optional(
    Type.Union([
      Type.Object({
        include: Type.Optional(NameList),
        exclude: Type.Optional(NameList),
        requires_confirmation: Type.Optional(NameList),
      }),
      Type.Null(),
    ]),
  ),
});
export type McpConnectorTool = Static<typeof McpConnectorTool>;

/**
 * A tool as agents and conversations accept it: a function tool, or any other `{type}` (Mistral's
 * built-in tools), which the core refuses with 422 `unsupported_tool` naming it.
 */
export const AgentToolInput = Type.Union(
  [FunctionTool, Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true })],
  {
    description:
      'A function tool ({type: "function", function: {name, description, parameters}}), or a connector to one of the gateway\'s MCP servers ({type: "connector", connector_id: <server id>, tool_configuration?: {include, exclude, requires_confirmation}}); other built-in tools (web_search, code_interpreter, image_generation, document_library, …) are refused: nothing here runs them.',
  },
);

/** A tool an agent carries: function tools, and connectors to the gateway's MCP servers. */
export type AgentTool = Static<typeof FunctionTool> | McpConnectorTool;
