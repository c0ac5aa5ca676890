import { Type, type Static } from '@sinclair/typebox';

/** Defaults of a server's per-call limits (config file, console, mcp.json import). */
export const MCP_DEFAULTS = {
  timeout_ms: 60_000,
  max_output_chars: 100_000,
} as const;

export const McpServerId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' });
const SecretMap = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ maxLength: 8000 }), {
  description:
    'Secret values: stored encrypted and never shown back; in the console an empty value keeps the stored one',
});

/** What may use a server besides Owners: `"all"` keys, or the listed key ids. */
export const McpAllowedKeys = Type.Union([Type.Literal('all'), Type.Array(Type.String({ minLength: 1 }))], {
  description: 'Keys (besides Owners) that may use this server: "all", or a list of key ids (default: none)',
});

/** The fields of one MCP server, as the config file's `mcp_servers` entries and the console write them. */
export const McpServerFields = {
  /** stdio: the program the gateway starts (on demand) and talks to over stdin and stdout. */
  command: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
  args: Type.Optional(Type.Array(Type.String({ maxLength: 4000 }), { maxItems: 200 })),
  /** stdio: the whole environment of the process, with PATH added (secrets: stored encrypted, never shown back). */
  env: Type.Optional(SecretMap),
  /** stdio: working folder of the process (default: the gateway's). */
  cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
  /** Streamable HTTP (legacy HTTP+SSE as a fallback). */
  url: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 })),
  /** HTTP headers sent with every request (secrets: stored encrypted, never shown back). */
  headers: Type.Optional(SecretMap),
  allowed_keys: Type.Optional(McpAllowedKeys),
  /** Longest one tool call may take, in milliseconds (default 60000). */
  timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 3_600_000 })),
  /** A tool result longer than this many characters (its JSON) is cut, with a note saying so (default 100000). */
  max_output_chars: Type.Optional(Type.Integer({ minimum: 100, maximum: 50_000_000 })),
};

export const McpServerConfigSchema = Type.Object(
  { id: McpServerId, ...McpServerFields },
  { additionalProperties: false },
);
export type McpServerConfig = Static<typeof McpServerConfigSchema>;

/** What is wrong with a server's fields as a whole (the schema checks each alone), or undefined. */
export function mcpServerShapeProblem(server: Omit<McpServerConfig, 'id'>): string | undefined {
  if (!server.command === !server.url)
    return 'give either `command` (a stdio server the gateway starts) or `url` (a Streamable HTTP server), not both or neither';
  const misplaced = server.command
    ? (['headers'] as const).find((field) => server[field] !== undefined)
    : (['args', 'env', 'cwd'] as const).find((field) => server[field] !== undefined);
  return misplaced && `\`${misplaced}\` belongs to ${server.command ? 'an HTTP' : 'a stdio'} server`;
}

export const McpTransport = Type.Union([Type.Literal('stdio'), Type.Literal('http')]);
export const McpServerState = Type.Union([Type.Literal('starting'), Type.Literal('ready'), Type.Literal('failed')]);

export const McpToolView = Type.Object({
  name: Type.String(),
  description: Type.String(),
  input_schema: Type.Record(Type.String(), Type.Unknown(), { description: "The tool's JSON schema of its arguments" }),
  read_only: Type.Boolean({ description: 'The server annotates the tool read-only (readOnlyHint)' }),
  require_approval: Type.Union([Type.Literal('always'), Type.Literal('never')], {
    description: 'A model may call it without asking only when the server marks it read-only',
  }),
});
export type McpTool = Static<typeof McpToolView>;

/** One entry of GET /v1/mcp/servers. */
export const McpServerView = Type.Object({
  id: Type.String(),
  transport: McpTransport,
  state: McpServerState,
  error: Type.Optional(Type.String()),
  tools: Type.Array(McpToolView),
});
export type McpServerStatus = Static<typeof McpServerView>;

/** What one tool call came to: its result, or why it has none (never thrown: a model is told as a tool error). */
export const McpCallOutcome = Type.Union([
  Type.Literal('ok'),
  Type.Literal('tool_error'),
  Type.Literal('timeout'),
  Type.Literal('cancelled'),
  Type.Literal('failed'),
  /** A model's call that a person refused (tool loops only). */
  Type.Literal('refused'),
]);
export type McpCallOutcomeName = Static<typeof McpCallOutcome>;

export const McpToolResultView = Type.Object({
  object: Type.Literal('mcp.tool_result'),
  server: Type.String(),
  tool: Type.String(),
  outcome: McpCallOutcome,
  is_error: Type.Boolean(),
  /** MCP content blocks as the server sent them (text, image, audio, resource, resource_link); untrusted. */
  content: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  structured_content: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  duration_ms: Type.Number(),
  truncated: Type.Boolean({ description: "The result was longer than the server's max_output_chars and was cut" }),
});
export type McpToolResult = Static<typeof McpToolResultView>;
