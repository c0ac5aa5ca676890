import { Type, type Static } from '@sinclair/typebox';
import { Metadata } from './text-limits.js';

/**
 * The OpenAI Responses API's wire shapes, the ones this gateway reads and writes: core translates
 * them to and from chat; the route uses them for validation and the OpenAPI document.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** One input item: a message (`role` + `content`), a function call the model made, or its output. Checked item by item in responsesToChat. */
export const InputItem = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        description:
          'message (default when role is set), function_call, function_call_output, item_reference, mcp_approval_response; mcp_call items are read back as calls and results, mcp_list_tools, mcp_approval_request and reasoning items are skipped',
      }),
    ),
    id: Type.Optional(Type.String()),
    role: Type.Optional(
      Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('system'), Type.Literal('developer')]),
    ),
    content: Type.Optional(
      Type.Union([
        Type.String(),
        Type.Array(
          Type.Object(
            {
              type: Type.String({ description: 'input_text, output_text, input_image (refusal is read as text)' }),
              text: Type.Optional(Type.String()),
              image_url: Type.Optional(Nullable(Type.String())),
              refusal: Type.Optional(Type.String()),
              detail: Type.Optional(Type.String()),
            },
            { additionalProperties: true },
          ),
        ),
      ]),
    ),
    call_id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    arguments: Type.Optional(Type.String()),
    output: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.Record(Type.String(), Type.Unknown())), Type.Null()]),
    ),
    approval_request_id: Type.Optional(Type.String({ description: 'mcp_approval_response: the request it answers' })),
    reason: Type.Optional(Nullable(Type.String({ description: 'mcp_approval_response: why, told to the model' }))),
    server_label: Type.Optional(Type.String()),
    error: Type.Optional(Nullable(Type.String())),
    approve: Type.Optional(Type.Boolean({ description: 'mcp_approval_response: run the call (true) or refuse it' })),
  },
  { additionalProperties: true },
);
export type InputItemType = Static<typeof InputItem>;

const McpToolFilter = Type.Object(
  {
    tool_names: Type.Optional(Type.Array(Type.String())),
    read_only: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const FunctionTool = Type.Object(
  {
    type: Type.String({
      description:
        'function, or mcp (tools of an MCP server, run by the gateway); other built-in tools (web_search, file_search, code_interpreter, ...) are refused: nothing here runs them',
    }),
    name: Type.Optional(Type.String({ minLength: 1 })),
    description: Type.Optional(Nullable(Type.String())),
    parameters: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
    strict: Type.Optional(Nullable(Type.Boolean())),
    server_label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'mcp: a configured MCP server id (without server_url), or a label for server_url',
      }),
    ),
    server_url: Type.Optional(
      Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000, description: 'mcp: a Streamable HTTP server' }),
    ),
    server_description: Type.Optional(Type.String()),
    connector_id: Type.Optional(Type.String({ description: 'mcp: OpenAI connectors are refused' })),
    headers: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.String(), {
          description: 'mcp: sent to server_url; never stored or shown back',
        }),
      ),
    ),
    allowed_tools: Type.Optional(Nullable(Type.Union([Type.Array(Type.String()), McpToolFilter]))),
    require_approval: Type.Optional(
      Nullable(
        Type.Union([
          Type.Literal('always'),
          Type.Literal('never'),
          Type.Object(
            { always: Type.Optional(McpToolFilter), never: Type.Optional(McpToolFilter) },
            { additionalProperties: true },
          ),
        ]),
      ),
    ),
  },
  { additionalProperties: true },
);
export type ResponsesToolType = Static<typeof FunctionTool>;

export const ResponsesToolChoice = Type.Union([
  Type.Union(['auto', 'none', 'required'].map((choice) => Type.Literal(choice))),
  Type.Object({ type: Type.Literal('function'), name: Type.String() }, { additionalProperties: true }),
]);
export type ResponsesToolChoiceType = Static<typeof ResponsesToolChoice>;

export const TextFormat = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object(
    {
      type: Type.Literal('json_schema'),
      name: Type.Optional(Type.String()),
      schema: Type.Record(Type.String(), Type.Unknown()),
      description: Type.Optional(Type.String()),
      strict: Type.Optional(Nullable(Type.Boolean())),
    },
    { additionalProperties: true },
  ),
]);
export type TextFormatType = Static<typeof TextFormat>;

export const ResponsesBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    input: Type.Optional(Type.Union([Type.String(), Type.Array(InputItem)])),
    instructions: Type.Optional(Nullable(Type.String())),
    tools: Type.Optional(Nullable(Type.Array(FunctionTool))),
    tool_choice: Type.Optional(Nullable(ResponsesToolChoice)),
    parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
    text: Type.Optional(
      Nullable(Type.Object({ format: Type.Optional(Nullable(TextFormat)) }, { additionalProperties: true })),
    ),
    max_output_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    max_tool_calls: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          description:
            "MCP tool calls the gateway may run for this response in all; the model's calls past it are not run",
        }),
      ),
    ),
    temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
    top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
    previous_response_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    conversation: Type.Optional(
      Type.Unknown({
        description:
          "Not served: an upstream's stored conversations are refused (422); continue with previous_response_id.",
      }),
    ),
    store: Type.Optional(
      Nullable(
        Type.Boolean({
          description: 'Default true: the response can be retrieved and continued with previous_response_id.',
        }),
      ),
    ),
    stream: Type.Optional(Nullable(Type.Boolean())),
    metadata: Type.Optional(Nullable(Metadata())),
    user: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: true },
);
export type ResponsesBodyType = Static<typeof ResponsesBody>;

const OutputText = Type.Object({
  type: Type.Literal('output_text'),
  text: Type.String(),
  annotations: Type.Array(Type.Unknown()),
  logprobs: Type.Optional(Type.Array(Type.Unknown())),
});

export const OutputMessage = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('message'),
    status: Type.Union(['in_progress', 'completed', 'incomplete'].map((status) => Type.Literal(status))),
    role: Type.Literal('assistant'),
    content: Type.Array(OutputText),
  },
  { additionalProperties: true },
);
export const FunctionCallItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('function_call'),
    status: Type.Union(['in_progress', 'completed', 'incomplete'].map((status) => Type.Literal(status))),
    call_id: Type.String(),
    name: Type.String(),
    arguments: Type.String(),
  },
  { additionalProperties: true },
);
export const McpListToolsItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('mcp_list_tools'),
    server_label: Type.String(),
    tools: Type.Array(
      Type.Object({
        name: Type.String(),
        description: Nullable(Type.String()),
        input_schema: Type.Unknown(),
        annotations: Nullable(Type.Unknown()),
      }),
    ),
    error: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: true },
);
export const McpCallItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('mcp_call'),
    server_label: Type.String(),
    name: Type.String(),
    arguments: Type.String(),
    status: Type.Union(['in_progress', 'calling', 'completed', 'incomplete', 'failed'].map((s) => Type.Literal(s))),
    output: Nullable(Type.String()),
    error: Nullable(Type.String()),
    approval_request_id: Type.Optional(Nullable(Type.String())),
    duration_ms: Type.Optional(Type.Number({ description: "The gateway's addition: how long the call took" })),
  },
  { additionalProperties: true },
);
export const McpApprovalRequestItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('mcp_approval_request'),
    server_label: Type.String(),
    name: Type.String(),
    arguments: Type.String(),
  },
  { additionalProperties: true },
);
export const OutputItem = Type.Union([
  OutputMessage,
  FunctionCallItem,
  McpListToolsItem,
  McpCallItem,
  McpApprovalRequestItem,
]);
export type OutputItemType = Static<typeof OutputItem>;
export type McpListToolsItemType = Static<typeof McpListToolsItem>;
export type McpCallItemType = Static<typeof McpCallItem>;
export type McpApprovalRequestItemType = Static<typeof McpApprovalRequestItem>;
export type OutputMessageType = Static<typeof OutputMessage>;
export type FunctionCallItemType = Static<typeof FunctionCallItem>;

export const ResponsesUsage = Type.Object({
  input_tokens: Type.Integer(),
  input_tokens_details: Type.Object({ cached_tokens: Type.Integer() }),
  output_tokens: Type.Integer(),
  output_tokens_details: Type.Object({ reasoning_tokens: Type.Integer() }),
  total_tokens: Type.Integer(),
});

export const ResponseObject = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('response'),
    created_at: Type.Integer(),
    status: Type.Union(
      ['completed', 'incomplete', 'in_progress', 'failed', 'cancelled', 'queued'].map((status) => Type.Literal(status)),
    ),
    completed_at: Nullable(Type.Integer()),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    incomplete_details: Nullable(Type.Object({ reason: Type.String() })),
    instructions: Nullable(Type.String()),
    max_output_tokens: Nullable(Type.Integer()),
    max_tool_calls: Type.Optional(Nullable(Type.Integer())),
    model: Type.String(),
    output: Type.Array(OutputItem),
    parallel_tool_calls: Type.Boolean(),
    previous_response_id: Nullable(Type.String()),
    reasoning: Type.Object({ effort: Nullable(Type.String()), summary: Nullable(Type.String()) }),
    store: Type.Boolean(),
    temperature: Nullable(Type.Number()),
    text: Type.Object({ format: TextFormat }),
    tool_choice: ResponsesToolChoice,
    tools: Type.Array(Type.Unknown()),
    top_p: Nullable(Type.Number()),
    truncation: Type.String(),
    usage: Nullable(ResponsesUsage),
    user: Nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.String()),
  },
  { additionalProperties: true },
);
export type ResponseObjectType = Static<typeof ResponseObject>;

/** An item as GET /v1/responses/{id}/input_items lists it: every item carries an id. */
export const StoredInputItem = Type.Intersect([InputItem, Type.Object({ id: Type.String() })]);
export type StoredInputItemType = Static<typeof StoredInputItem>;

export const ResponseDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('response'),
  deleted: Type.Literal(true),
});
