import { Type } from '@fastify/type-provider-typebox';

/**
 * A tool as agents and conversations accept it: a function tool, or any other `{type}` (Mistral's
 * built-in tools), which the core refuses with 422 `unsupported_tool` naming it.
 */
export const AgentTool = Type.Union(
  [
    Type.Object({
      type: Type.Literal('function'),
      function: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }), description: Type.Optional(Type.String()), parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: true }),
    }),
    Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true }),
  ],
  { description: 'A function tool ({type: "function", function: {name, description, parameters}}); built-in tools (web_search, code_interpreter, image_generation, document_library, …) are refused: nothing here runs them.' },
);
