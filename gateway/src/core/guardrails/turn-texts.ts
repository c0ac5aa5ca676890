import type { ChatRequest } from '../../providers/contracts/chat.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import type { ToolDefinition } from '../../wire/tool-schemas.js';
import { mapSchemaTexts, type TextVisit } from './schema-texts.js';

/** What a chat turn sends the model as text: its messages, its tools' definitions, its response format and stop sequences. */
export type GuardedTurn = Pick<ChatRequest, 'messages' | 'tools' | 'response_format' | 'stop'>;

/** The messages rebuilt with each text (a message's text, a tool call's arguments) as `visit` returns it. */
export function mapMessageTexts(messages: ChatMessage[], visit: TextVisit): ChatMessage[] {
  return messages.map((message) => {
    const content =
      typeof message.content === 'string'
        ? visit(message.content, 'prose')
        : (message.content?.map((part) =>
            part.type === 'text' ? { ...part, text: visit(part.text, 'prose') } : part,
          ) ?? null);
    const toolCalls = message.tool_calls?.map((call) => ({
      ...call,
      function: { ...call.function, arguments: visit(call.function.arguments, 'prose') },
    }));
    return { ...message, content, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
  });
}

function toolTexts(tool: ToolDefinition, visit: TextVisit): ToolDefinition {
  const { name, description, parameters } = tool.function;
  visit(name, 'fixed');
  return {
    ...tool,
    function: {
      ...tool.function,
      ...(description !== undefined ? { description: visit(description, 'prose') } : {}),
      ...(parameters !== undefined ? { parameters: mapSchemaTexts(parameters, visit) as typeof parameters } : {}),
    },
  };
}

function formatTexts(format: ResponseFormat, visit: TextVisit): ResponseFormat {
  if (format.type !== 'json_schema') return format;
  const { name, description, schema } = format.json_schema;
  if (name !== undefined) visit(name, 'fixed');
  return {
    ...format,
    json_schema: {
      ...format.json_schema,
      ...(description !== undefined ? { description: visit(description, 'prose') } : {}),
      schema: mapSchemaTexts(schema, visit) as typeof schema,
    },
  };
}

/**
 * The turn rebuilt with each text it sends as `visit` returns it: the messages' and the descriptions
 * as prose; tools' and schemas' names, values and patterns, and stop sequences, as fixed text.
 */
export function mapTurnTexts<T extends GuardedTurn>(turn: T, visit: TextVisit): T {
  for (const stop of turn.stop ?? []) visit(stop, 'fixed');
  return {
    ...turn,
    messages: mapMessageTexts(turn.messages, visit),
    ...(turn.tools ? { tools: turn.tools.map((tool) => toolTexts(tool, visit)) } : {}),
    ...(turn.response_format ? { response_format: formatTexts(turn.response_format, visit) } : {}),
  };
}
