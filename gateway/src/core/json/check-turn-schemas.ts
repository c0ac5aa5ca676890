import type { ChatRequest } from '../../providers/contracts/chat.js';
import { checkClientSchemaSize, type ClientSchemaSizeLimits } from './check-client-schema-size.js';

/** The request fields errors name: chat completions' by default. */
export interface TurnSchemaFields {
  format: string;
  tools: string;
}

/**
 * Refuses a chat turn whose response_format schema or tool parameters pass the client-schema limits
 * (422 naming the field), before any provider sees them: the local engine turns them into a grammar
 * on the event loop, and a few megabytes of properties take it seconds.
 */
export function checkTurnSchemas(
  turn: Pick<ChatRequest, 'response_format' | 'tools'>,
  limits: ClientSchemaSizeLimits,
  fields: TurnSchemaFields = { format: 'response_format', tools: 'tools' },
): void {
  if (turn.response_format?.type === 'json_schema')
    checkClientSchemaSize(turn.response_format.json_schema.schema, fields.format, limits);
  turn.tools?.forEach((tool, index) => {
    if (tool.function.parameters) checkClientSchemaSize(tool.function.parameters, `${fields.tools}[${index}]`, limits);
  });
}
