import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import { toolCallJson } from './tool-call-json.js';

function textOf(message: ChatMessage): string {
  if (message.content === null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      throw new ProviderError(
        'invalid_request',
        'Image inputs are not supported by local llama.cpp models; send text only or route to a vision model.',
        {
          param: 'messages',
          code: 'unsupported_content',
        },
      );
    })
    .join('\n');
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The calls of the conversation so far, so that tool messages can attach their results. */
class ToolCallLedger {
  private readonly byId = new Map<string, ChatModelFunctionCall>();
  private readonly unanswered: { id: string; call: ChatModelFunctionCall }[] = [];

  record(id: string, call: ChatModelFunctionCall): void {
    this.byId.set(id, call);
    this.unanswered.push({ id, call });
  }

  /** Matches by tool_call_id, or by name for clients that send only `name` (older Mistral ones). */
  answer(message: ChatMessage): void {
    const index = this.unanswered.findIndex(({ id, call }) =>
      message.tool_call_id !== undefined ? id === message.tool_call_id : call.name === message.name,
    );
    const call = index >= 0 ? this.unanswered.splice(index, 1)[0].call : undefined;
    if (!call) {
      const which =
        message.tool_call_id !== undefined ? `tool_call_id "${message.tool_call_id}"` : `name "${message.name ?? ''}"`;
      const why =
        message.tool_call_id !== undefined && this.byId.has(message.tool_call_id)
          ? 'already has a result'
          : 'matches no tool call of an earlier assistant message';
      throw new ProviderError('invalid_request', `A tool message answers a tool call, but its ${which} ${why}.`, {
        param: 'messages',
      });
    }
    call.result = parseJsonOr(textOf(message));
  }
}

/**
 * Earlier calls become node-llama-cpp function-call items whose raw text is the JSON form the
 * model is asked to write, so the history shows them as its own output; their results are
 * rendered by the chat wrapper the way its template presents function results.
 */
function modelResponse(message: ChatMessage, ledger: ToolCallLedger): ChatModelResponse {
  const text = textOf(message);
  const calls = message.tool_calls ?? [];
  const response: ChatModelResponse['response'] = [];
  if (text.length > 0) response.push(calls.length > 0 ? `${text}\n` : text);
  for (const toolCall of calls) {
    const params = parseJsonOr(toolCall.function.arguments);
    const call: ChatModelFunctionCall = {
      type: 'functionCall',
      name: toolCall.function.name,
      params,
      result: undefined,
      rawCall: toolCallJson(toolCall.function.name, params),
    };
    ledger.record(toolCall.id, call);
    response.push(call);
  }
  return { type: 'model', response };
}

const endsWithAnsweredCall = (item: ChatHistoryItem | undefined): boolean => {
  const last = item?.type === 'model' ? item.response.at(-1) : undefined;
  return typeof last === 'object' && last.type === 'functionCall' && last.result !== undefined;
};

/**
 * Converts API messages to node-llama-cpp's history, ending with the model turn to generate.
 * `toolsPrompt` (the tools on offer) joins the leading system messages.
 */
export function toChatHistory(messages: ChatMessage[], toolsPrompt?: string): ChatHistoryItem[] {
  const ledger = new ToolCallLedger();
  const history: ChatHistoryItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        history.push({ type: 'system', text: textOf(message) });
        break;
      case 'user':
        history.push({ type: 'user', text: textOf(message) });
        break;
      case 'assistant':
        history.push(modelResponse(message, ledger));
        break;
      case 'tool':
        ledger.answer(message);
        break;
    }
  }
  if (toolsPrompt !== undefined) {
    const firstNonSystem = history.findIndex((item) => item.type !== 'system');
    history.splice(firstNonSystem < 0 ? history.length : firstNonSystem, 0, { type: 'system', text: toolsPrompt });
  }
  // After tool results the model goes on with the same turn, as node-llama-cpp does after its own calls.
  if (!endsWithAnsweredCall(history.at(-1))) history.push({ type: 'model', response: [] });
  return history;
}
