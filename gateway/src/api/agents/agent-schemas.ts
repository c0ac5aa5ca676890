import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../../wire/agent-tool-schemas.js';

const isoTime = Type.String({ format: 'date-time' });

export const AgentObject = Type.Object({
  id: Type.String(),
  object: Type.Literal('agent'),
  created: Type.Integer({ description: 'Unix seconds (SPEC); created_at is the same time in ISO 8601 (Mistral)' }),
  name: Type.String(),
  model: Type.String(),
  instructions: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  tools: Type.Array(Type.Unknown(), { description: 'Function tools' }),
  completion_args: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The chat parameters every turn of the agent uses (a request or turn overrides them)',
  }),
  version: Type.Integer({ description: 'The current version; each update makes the next one' }),
  versions: Type.Array(Type.Integer()),
  created_at: isoTime,
  updated_at: isoTime,
  deployment_chat: Type.Boolean(),
  source: Type.String(),
  handoffs: Type.Null(),
  metadata: Type.Null(),
});
/** `tools` are returned as stored, unfiltered by the response schema; they were checked as AgentTool when written. */
export type Agent = Omit<Static<typeof AgentObject>, 'tools'> & { tools: AgentTool[] };
