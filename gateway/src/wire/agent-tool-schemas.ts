import { Type, type Static } from '@sinclair/typebox';

/** The built-in tool names Mistral agents use: stored with the agent, executed by nobody here. */
export const BUILT_IN_AGENT_TOOLS = ['web_search', 'web_search_premium', 'code_interpreter', 'image_generation', 'document_library'] as const;
export type BuiltInAgentTool = (typeof BUILT_IN_AGENT_TOOLS)[number];

const FunctionTool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }), description: Type.Optional(Type.String()), parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }),
});

const BuiltInTool = Type.Object({ type: Type.Union(BUILT_IN_AGENT_TOOLS.map((name) => Type.Literal(name))) });

/** Tools an agent may carry: functions (the only ones that reach the model), and built-in tool names. */
export const AgentTool = Type.Union([FunctionTool, BuiltInTool], { description: 'A function tool ({type: "function", function: {name, description, parameters}}) or a built-in tool name (stored; only function tools reach the model).' });
export type AgentTool = Static<typeof AgentTool>;
