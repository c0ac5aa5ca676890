import type { ChatChoice, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { FinishReason, TokenUsage } from '../../providers/contracts/sampling.js';
import { newId } from '../ids/ids.js';
import type { ResponseStreamEvent } from './responses-outcome.js';
import type {
  FunctionCallItemType,
  OutputItemType,
  OutputMessageType,
  ResponseObjectType,
  ResponsesBodyType,
} from '../../wire/responses-schemas.js';

/** The response object before any output: what the request asked for, status in_progress. */
export function responseSkeleton(body: ResponsesBodyType, modelId: string): ResponseObjectType {
  return {
    id: newId('resp_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'in_progress',
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: modelId,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store !== false,
    temperature: body.temperature ?? null,
    text: { format: body.text?.format ?? { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: (body.tools ?? []).map((tool) => ({ strict: null, description: null, parameters: null, ...tool })),
    top_p: body.top_p ?? null,
    truncation: 'disabled',
    usage: null,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}

export function responsesUsage(usage: TokenUsage): NonNullable<ResponseObjectType['usage']> {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
  };
}

/** The finished response: `incomplete` when the output was cut by max_output_tokens or a content filter. */
export function finishResponse(
  skeleton: ResponseObjectType,
  output: OutputItemType[],
  finishReason: FinishReason,
  usage: TokenUsage,
): ResponseObjectType {
  const incomplete =
    finishReason === 'length' ? 'max_output_tokens' : finishReason === 'content_filter' ? 'content_filter' : undefined;
  return {
    ...skeleton,
    status: incomplete ? 'incomplete' : 'completed',
    completed_at: incomplete ? null : Math.floor(Date.now() / 1000),
    incomplete_details: incomplete ? { reason: incomplete } : null,
    output: output.map((item) => (incomplete && item.type === 'message' ? { ...item, status: 'incomplete' } : item)),
    usage: responsesUsage(usage),
  };
}

const messageItem = (text: string, status: OutputMessageType['status']): OutputMessageType => ({
  id: newId('msg_'),
  type: 'message',
  status,
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

/** A chat answer's first choice as output items: its text as one message, then one function_call per tool call. */
export function choiceToOutput(choice: ChatChoice | undefined): OutputItemType[] {
  if (!choice) return [];
  const output: OutputItemType[] = [];
  if (choice.message.content) output.push(messageItem(choice.message.content, 'completed'));
  for (const call of choice.message.tool_calls ?? []) {
    output.push({
      id: newId('fc_'),
      type: 'function_call',
      status: 'completed',
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    });
  }
  return output;
}

/**
 * Chat stream events (first choice) to the Responses event sequence: response.created and
 * .in_progress, then per output item .output_item.added, its text (.content_part.added,
 * .output_text.delta…, .output_text.done, .content_part.done) or its arguments
 * (.function_call_arguments.delta…, .done), .output_item.done, and last .completed (or .incomplete).
 * `onFinish` gets the final response before the last event leaves.
 */
export async function* chatStreamToResponseEvents(
  events: AsyncIterable<ChatStreamEvent>,
  skeleton: ResponseObjectType,
  onFinish: (response: ResponseObjectType) => void,
): AsyncGenerator<ResponseStreamEvent> {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>): ResponseStreamEvent => ({
    type,
    sequence_number: sequence++,
    ...fields,
  });
  const output: OutputItemType[] = [];
  let message: { item: OutputMessageType; index: number; text: string } | undefined;
  const calls = new Map<number, { item: FunctionCallItemType; index: number }>();
  let finishReason: FinishReason = 'stop';
  // Every chat stream ends with its usage (ChatStreamEvent); the chat service has charged it.
  let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };

  yield event('response.created', { response: skeleton });
  yield event('response.in_progress', { response: skeleton });

  function* closeMessage(): Generator<ResponseStreamEvent> {
    if (!message) return;
    const { item, index, text } = message;
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    yield event('response.output_text.done', {
      item_id: item.id,
      output_index: index,
      content_index: 0,
      text,
      logprobs: [],
    });
    yield event('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part });
    const done: OutputMessageType = {
      ...item,
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
    };
    output[index] = done;
    yield event('response.output_item.done', { output_index: index, item: done });
    message = undefined;
  }

  for await (const chunk of events) {
    if (chunk.type === 'usage') {
      usage = chunk.usage;
      continue;
    }
    if (chunk.index !== 0) continue;
    if (chunk.type === 'finish') {
      finishReason = chunk.finish_reason;
      continue;
    }
    if (chunk.content) {
      if (!message) {
        const item: OutputMessageType = { ...messageItem('', 'in_progress'), content: [] };
        message = { item, index: output.length, text: '' };
        output.push(item);
        yield event('response.output_item.added', { output_index: message.index, item });
        yield event('response.content_part.added', {
          item_id: item.id,
          output_index: message.index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
        });
      }
      message.text += chunk.content;
      yield event('response.output_text.delta', {
        item_id: message.item.id,
        output_index: message.index,
        content_index: 0,
        delta: chunk.content,
        logprobs: [],
      });
    }
    for (const delta of chunk.tool_calls ?? []) {
      let call = calls.get(delta.index);
      if (!call) {
        yield* closeMessage();
        const item: FunctionCallItemType = {
          id: newId('fc_'),
          type: 'function_call',
          status: 'in_progress',
          call_id: delta.id ?? newId('call_'),
          name: delta.function?.name ?? '',
          arguments: '',
        };
        call = { item, index: output.length };
        calls.set(delta.index, call);
        output.push(item);
        yield event('response.output_item.added', { output_index: call.index, item: { ...item } });
      } else if (delta.function?.name) {
        call.item.name += delta.function.name;
      }
      const piece = delta.function?.arguments ?? '';
      if (piece !== '') {
        call.item.arguments += piece;
        yield event('response.function_call_arguments.delta', {
          item_id: call.item.id,
          output_index: call.index,
          delta: piece,
        });
      }
    }
  }

  yield* closeMessage();
  for (const { item, index } of calls.values()) {
    yield event('response.function_call_arguments.done', {
      item_id: item.id,
      output_index: index,
      name: item.name,
      arguments: item.arguments,
    });
    const done: FunctionCallItemType = { ...item, status: 'completed' };
    output[index] = done;
    yield event('response.output_item.done', { output_index: index, item: done });
  }
  const final = finishResponse(skeleton, output, finishReason, usage);
  onFinish(final);
  yield event(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
}
