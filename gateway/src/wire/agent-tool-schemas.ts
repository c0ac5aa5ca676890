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

/**
 * A tool as agents and conversations accept it: a function tool, or any other `{type}` (Mistral's
 * built-in tools), which the core refuses with 422 `unsupported_tool` naming it.
 */
export const AgentToolInput = Type.Union(
  [FunctionTool, Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true })],
  {
    description:
      'A function tool ({type: "function", function: {name, description, parameters}}); built-in tools (web_search, code_interpreter, image_generation, document_library, …) are refused: nothing here runs them.',
  },
);

/** A tool an agent carries: only function tools are ever stored. */
export type AgentTool = Static<typeof FunctionTool>;
