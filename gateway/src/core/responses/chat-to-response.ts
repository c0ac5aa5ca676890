import type { ChatChoice, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { FinishReason, TokenUsage } from '../../providers/contracts/sampling.js';
import { newId } from '../ids/ids.js';
import type { ResponseStreamEvent } from './responses-outcome.js';
import { ResponseOutputWriter } from './response-output-writer.js';
import type { ResponseObjectType, ResponsesBodyType } from '../../wire/responses-schemas.js';

/**
 * The response object before any output: what the request asked for, status in_progress. An `mcp`
 * tool's headers (credentials for its server) are never echoed or stored.
 */
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
    max_tool_calls: body.max_tool_calls ?? null,
    model: modelId,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store !== false,
    temperature: body.temperature ?? null,
    text: { format: body.text?.format ?? { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: (body.tools ?? []).map(({ headers: _headers, ...tool }) =>
      tool.type === 'mcp' ? tool : { strict: null, description: null, parameters: null, ...tool },
    ),
    top_p: body.top_p ?? null,
    truncation: 'disabled',
    usage: null,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}

/** A whole chat answer (its first choice) as a finished response: its text as one message, then one function_call per tool call. */
export function chatAnswerToResponse(
  skeleton: ResponseObjectType,
  choice: ChatChoice | undefined,
  usage: TokenUsage,
): ResponseObjectType {
  const writer = new ResponseOutputWriter(skeleton);
  if (choice) writer.wholeStep(choice.message);
  return writer.finish(choice?.finish_reason ?? 'stop', usage);
}

/**
 * Chat stream events (first choice) to the Responses event sequence (see ResponseOutputWriter), the
 * last being .completed (or .incomplete). `onFinish` gets the final response before it leaves.
 */
export async function* chatStreamToResponseEvents(
  events: AsyncIterable<ChatStreamEvent>,
  skeleton: ResponseObjectType,
  onFinish: (response: ResponseObjectType) => void,
): AsyncGenerator<ResponseStreamEvent> {
  const writer = new ResponseOutputWriter(skeleton);
  let finishReason: FinishReason = 'stop';
  // Every chat stream ends with its usage (ChatStreamEvent); the chat service has charged it.
  let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  yield* writer.start();
  for await (const chunk of events) {
    if (chunk.type === 'usage') usage = chunk.usage;
    else if (chunk.type === 'finish') {
      if (chunk.index === 0) finishReason = chunk.finish_reason;
    } else yield* writer.delta(chunk);
  }
  yield* writer.endStep();
  const final = writer.finish(finishReason, usage);
  onFinish(final);
  yield writer.finished(final);
}
