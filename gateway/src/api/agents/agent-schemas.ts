import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../../wire/agent-tool-schemas.js';

export const AgentObject = Type.Object({
  id: Type.String(),
  object: Type.Literal('agent'),
  created: Type.Integer(),
  name: Type.String(),
  model: Type.String(),
  instructions: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  tools: Type.Array(Type.Unknown()),
});
/** `tools` are returned as stored, unfiltered by the response schema; they were checked as AgentTool when written. */
export type Agent = Omit<Static<typeof AgentObject>, 'tools'> & { tools: AgentTool[] };
