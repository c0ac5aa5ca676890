import type {
  ChatChoice,
  ChatProvider,
  ChatRequest,
  ChatResult,
  ChatStreamEvent,
  ToolCallDelta,
} from '../../contracts/chat.js';
import type { ToolCall } from '../../../wire/chat-message-schemas.js';
import type { UpstreamClient } from '../http/upstream-client.js';
import {
  expectArray,
  expectRecord,
  isRecord,
  malformedResponse,
  optionalNumber,
  optionalString,
  type JsonRecord,
} from '../http/wire-guards.js';
import { approximateTokens } from '../approximate-tokens.js';
import { chatMessageText } from '../chat-message-text.js';
import { readTokenUsage, toFinishReason } from './answer-values.js';
import type { OpenAiDialect } from './openai-dialect.js';
import { reframeOpenAiStream } from './reframe-openai-stream.js';
import { buildChatBody } from './request-builders.js';

type DeltaEvent = Extract<ChatStreamEvent, { type: 'delta' }>;

/** Chat over `POST <base>/chat/completions`, plain and streamed. */
export function createOpenAiChat(
  client: UpstreamClient,
  dialect: OpenAiDialect,
  path = '/chat/completions',
): ChatProvider {
  const promptTokens = (request: ChatRequest): number => approximateTokens(...request.messages.map(chatMessageText));

  return {
    async chat(request: ChatRequest): Promise<ChatResult> {
      const answer = await client.postJson({
        path,
        body: { json: buildChatBody(request, dialect, false) },
        signal: request.signal,
      });
      return readChatResult(answer, client.name, () => promptTokens(request));
    },

    async chatStream(request: ChatRequest): Promise<AsyncIterable<ChatStreamEvent>> {
      const body = await client.postStream({
        path,
        body: { json: buildChatBody(request, dialect, true) },
        signal: request.signal,
      });
      return reframeOpenAiStream<DeltaEvent>(body, {
        providerName: client.name,
        promptTokens: promptTokens(request),
        choices: request.n,
        delta: chatDelta,
        contentDelta,
      });
    },
  };
}

/**
 * Reads a `chat.completion` answer (also Mistral's FIM answer, which has the same shape); `promptTokens`
 * counts the prompt approximately, only when the upstream reports no usage.
 */
export function readChatResult(answer: unknown, providerName: string, promptTokens: () => number): ChatResult {
  const record = expectRecord(answer, providerName, 'the answer');
  const choices = expectArray(record.choices, providerName, 'choices').map((choice, position): ChatChoice => {
    const item = expectRecord(choice, providerName, 'a choice');
    const message = expectRecord(item.message, providerName, 'a choice message');
    const toolCalls = Array.isArray(message.tool_calls)
      ? message.tool_calls.map((call, i) => readToolCall(call, i, providerName))
      : [];
    return {
      index: optionalNumber(item.index) ?? position,
      message: {
        role: 'assistant',
        content: contentText(message.content),
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      finish_reason: toFinishReason(item.finish_reason),
    };
  });
  if (choices.length === 0) throw malformedResponse(providerName, 'no choices');
  const usage = readTokenUsage(record.usage) ?? {
    prompt_tokens: promptTokens(),
    completion_tokens: approximateTokens(...choices.map((choice) => choice.message.content ?? '')),
  };
  return { choices, usage };
}

/** Content is a string, null, or (Mistral, some servers) a list of text parts. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function readToolCall(value: unknown, position: number, providerName: string): ToolCall {
  const call = expectRecord(value, providerName, 'a tool call');
  const fn = expectRecord(call.function, providerName, 'a tool call function');
  const args = fn.arguments;
  return {
    id: optionalString(call.id) ?? `call_${position}`,
    type: 'function',
    function: {
      name: optionalString(fn.name) ?? '',
      // Some servers send the arguments as an object rather than a JSON string.
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
    },
  };
}

function chatDelta(choice: JsonRecord, index: number): { event?: DeltaEvent; text: string } {
  const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
  const content = contentText(delta.content) ?? '';
  const toolCalls = Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isRecord).map(toolCallDelta) : [];
  const event: DeltaEvent = { type: 'delta', index };
  if (delta.role === 'assistant') event.role = 'assistant';
  if (content !== '') event.content = content;
  if (toolCalls.length > 0) event.tool_calls = toolCalls;
  const carries = event.role !== undefined || event.content !== undefined || event.tool_calls !== undefined;
  const toolText = toolCalls.map((call) => `${call.function?.name ?? ''}${call.function?.arguments ?? ''}`).join('');
  return { event: carries ? event : undefined, text: content + toolText };
}

/** What chatDelta returns for a choice whose delta is only non-empty `content`. */
function contentDelta(content: string, index: number): DeltaEvent {
  return { type: 'delta', index, content };
}

function toolCallDelta(call: JsonRecord, position: number): ToolCallDelta {
  const delta: ToolCallDelta = { index: optionalNumber(call.index) ?? position };
  if (typeof call.id === 'string') delta.id = call.id;
  if (call.type === 'function') delta.type = 'function';
  if (isRecord(call.function)) {
    const fn: NonNullable<ToolCallDelta['function']> = {};
    if (typeof call.function.name === 'string') fn.name = call.function.name;
    const args = call.function.arguments;
    if (typeof args === 'string') fn.arguments = args;
    else if (args !== undefined && args !== null) fn.arguments = JSON.stringify(args);
    delta.function = fn;
  }
  return delta;
}
