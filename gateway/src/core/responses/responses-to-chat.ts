import type { ChatMessage, ContentPart } from '../../wire/chat-message-schemas.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import type { ToolChoice, ToolDefinition } from '../../wire/tool-schemas.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';
import type { ChatTurn } from '../chat/chat-service.js';
import type { TurnSchemaFields } from '../json/check-turn-schemas.js';
import type {
  InputItemType,
  ResponsesBodyType,
  ResponsesToolChoiceType,
  StoredInputItemType,
  TextFormatType,
} from '../../wire/responses-schemas.js';

const invalid = (param: string, message: string): GatewayError =>
  new GatewayError(422, 'invalid_value', message, { param });

/** The request's `input` as items, each with an id (a string is one user message). */
export function inputItemsOf(input: ResponsesBodyType['input']): StoredInputItemType[] {
  if (input === undefined) return [];
  if (typeof input === 'string')
    return [{ id: newId('msg_'), type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return input.map((item) => ({
    ...item,
    type: item.type ?? (item.role ? 'message' : undefined),
    id: item.id ?? newId(item.type === 'function_call_output' ? 'fco_' : 'msg_'),
  }));
}

function contentParts(item: InputItemType, param: string): string | ContentPart[] {
  const { content } = item;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw invalid(
      `${param}.content`,
      'A message item needs `content`: a string or a list of input_text / input_image parts.',
    );
  return content.map((part, index): ContentPart => {
    if (
      (part.type === 'input_text' || part.type === 'output_text' || part.type === 'text') &&
      typeof part.text === 'string'
    )
      return { type: 'text', text: part.text };
    if (part.type === 'refusal' && typeof part.refusal === 'string') return { type: 'text', text: part.refusal };
    if (part.type === 'input_image' && typeof part.image_url === 'string')
      return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) } };
    throw invalid(
      `${param}.content[${index}]`,
      part.type === 'input_file' || part.type === 'input_image'
        ? `Content part "${part.type}" needs an inline URL or data URL here (file ids are not supported); for documents use POST /v1/chat/completions with document + question.`
        : `Unsupported content part type "${part.type}": use input_text, output_text or input_image.`,
    );
  });
}

const textOf = (parts: string | ContentPart[]): string =>
  typeof parts === 'string' ? parts : parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

/**
 * Responses items to chat messages: messages keep their role (`developer` and `system` as given),
 * a function_call joins the assistant turn before it as a tool call, its output becomes a `tool`
 * message, and reasoning items (which no chat model reads back) are dropped.
 */
export function itemsToMessages(
  items: readonly StoredInputItemType[],
  resolveReference: (id: string) => StoredInputItemType | undefined,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  items.forEach((given, index) => {
    const param = `input[${index}]`;
    let item = given;
    if (item.type === 'item_reference') {
      const found = typeof item.id === 'string' ? resolveReference(item.id) : undefined;
      if (!found)
        throw invalid(
          `${param}.id`,
          `No stored item with id "${item.id}" in this conversation; send the item itself or continue with previous_response_id.`,
        );
      item = found;
    }
    const type = item.type ?? (item.role ? 'message' : undefined);
    switch (type) {
      case 'message': {
        if (!item.role)
          throw invalid(`${param}.role`, 'A message item needs a role: user, assistant, system or developer.');
        const content = contentParts(item, param);
        messages.push({ role: item.role, content: item.role === 'assistant' ? textOf(content) : content });
        return;
      }
      case 'function_call': {
        if (!item.call_id || !item.name)
          throw invalid(param, 'A function_call item needs call_id, name and arguments.');
        const call = {
          id: item.call_id,
          type: 'function' as const,
          function: { name: item.name, arguments: item.arguments ?? '{}' },
        };
        const last = messages.at(-1);
        if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        return;
      }
      case 'function_call_output': {
        if (!item.call_id)
          throw invalid(`${param}.call_id`, 'A function_call_output item needs the call_id of the call it answers.');
        const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? '');
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: output });
        return;
      }
      case 'mcp_call': {
        // A call the gateway ran for an earlier response: the model reads it back as its call and result.
        if (!item.id || !item.name) throw invalid(param, 'An mcp_call item needs id, name and arguments.');
        const call = {
          id: item.id,
          type: 'function' as const,
          function: { name: item.name, arguments: item.arguments ?? '{}' },
        };
        const last = messages.at(-1);
        if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        const error = typeof item.error === 'string' ? item.error : undefined;
        messages.push({
          role: 'tool',
          tool_call_id: item.id,
          content: error ?? (typeof item.output === 'string' ? item.output : ''),
        });
        return;
      }
      // The tool lists are offered again from the request's mcp tools; approvals are the tool loop's.
      case 'mcp_list_tools':
      case 'mcp_approval_request':
      case 'mcp_approval_response':
      case 'reasoning':
        return;
      default:
        throw invalid(
          `${param}.type`,
          `Unsupported input item type "${type}": use message, function_call, function_call_output, mcp_approval_response or item_reference.`,
        );
    }
  });
  return messages;
}

/** What schema-size errors name in a Responses request. */
export const RESPONSES_SCHEMA_FIELDS: TurnSchemaFields = { format: 'text.format', tools: 'tools' };

/** A Responses request as the chat turn it runs: the conversation's messages and the request's sampling, tools and format. */
export function responsesTurn(body: ResponsesBodyType, messages: ChatMessage[]): ChatTurn {
  return {
    messages,
    max_tokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    top_p: body.top_p ?? undefined,
    tools: toChatTools(body.tools),
    tool_choice: toChatToolChoice(body.tool_choice),
    parallel_tool_calls: body.parallel_tool_calls ?? undefined,
    response_format: toResponseFormat(body.text?.format),
  };
}

/**
 * Function tools become chat tools; `mcp` tools are the tool loop's (mcp-responses.ts); other built-in
 * tools are refused, since nothing here would run them.
 */
function toChatTools(tools: ResponsesBodyType['tools']): ToolDefinition[] | undefined {
  const functions = (tools ?? []).flatMap((tool, index) => (tool.type === 'mcp' ? [] : [{ tool, index }]));
  if (functions.length === 0) return undefined;
  return functions.map(({ tool, index }) => {
    if (tool.type !== 'function') {
      throw invalid(
        `tools[${index}].type`,
        `Built-in tool "${tool.type}" is not available on this gateway (nothing here runs it); declare a function tool and run it in your code.`,
      );
    }
    if (!tool.name) throw invalid(`tools[${index}].name`, 'A function tool needs a name.');
    return {
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        ...(tool.parameters ? { parameters: tool.parameters } : {}),
      },
    };
  });
}

function toChatToolChoice(choice: ResponsesToolChoiceType | null | undefined): ToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  return typeof choice === 'string' ? (choice as ToolChoice) : { type: 'function', function: { name: choice.name } };
}

function toResponseFormat(format: TextFormatType | null | undefined): ResponseFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name,
      schema: format.schema,
      ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
    },
  };
}
