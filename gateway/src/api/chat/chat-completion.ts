import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdGenerator } from '../../core/ids/id-generator.js';
import type { ChatOutcome, ChatTurn } from '../../core/chat/chat-service.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { ChatMessage, ContentPart, ToolCall } from '../../wire/chat-message-schemas.js';
import { sendEventStream, sendWholeEventStream } from '../_shared/event-stream.js';
import type { SseWriter } from '../../streaming/sse-writer.js';
import { chatChunkFrames } from '../../streaming/chat-chunk-frame.js';
import { usageBody } from '../_shared/usage-body.js';
import { samplingParams } from '../_shared/sampling-schema.js';
import type { ChatBodyType } from './chat-schemas.js';
import { WholeToolCalls } from './whole-tool-calls.js';
import { cacheHeaders } from './cache-headers.js';
import { noteResponseId } from '../../http/request-tracing.js';

type BodyMessage = NonNullable<ChatBodyType['messages']>[number];

/** Clients send tool-call arguments as JSON text (OpenAI) or as an object (some Mistral clients). */
function normaliseMessage(message: BodyMessage): ChatMessage {
  const content = message.content ?? null;
  const normalised: ChatMessage = {
    role: message.role,
    content: Array.isArray(content)
      ? content.map((part): ContentPart => {
          if (part.type === 'document_url') {
            throw new GatewayError(
              422,
              'unsupported_content',
              'A document_url part is answered by document question answering on POST /v1/chat/completions, not here.',
              { param: 'messages' },
            );
          }
          return part.type === 'image_url'
            ? {
                type: 'image_url',
                image_url: typeof part.image_url === 'string' ? { url: part.image_url } : part.image_url,
              }
            : part;
        })
      : content,
  };
  // Assigned when present rather than spread in: a spread per optional field copies field by field.
  if (message.name) normalised.name = message.name;
  if (message.tool_call_id) normalised.tool_call_id = message.tool_call_id;
  if (message.tool_calls)
    normalised.tool_calls = message.tool_calls.map((call): ToolCall => ({
      id: call.id,
      type: 'function',
      function: {
        name: call.function.name,
        arguments:
          typeof call.function.arguments === 'string'
            ? call.function.arguments
            : JSON.stringify(call.function.arguments),
      },
    }));
  return normalised;
}

/** The chat turn a chat-completions body asks for (`messages` given apart: an agent puts its instructions first). */
export function toChatTurn(body: ChatBodyType, messages: NonNullable<ChatBodyType['messages']>): ChatTurn {
  return {
    ...samplingParams(body),
    messages: messages.map(normaliseMessage),
    response_format: body.response_format ?? undefined,
    tools: body.tools ?? undefined,
    tool_choice: body.tool_choice ?? undefined,
    parallel_tool_calls: body.parallel_tool_calls,
  };
}

/** A chat completion in OpenAI's shape: plain JSON, or chunks over SSE when the client streams. */
export function chatCompletionAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  body: ChatBodyType,
  outcome: ChatOutcome,
  ids: IdGenerator,
) {
  const stamp = outcome.cache?.stamp;
  const id = stamp?.id ?? ids.id('chatcmpl-');
  noteResponseId(request, id);
  const created = stamp?.created ?? Math.floor(Date.now() / 1000);
  const served = outcome.route;
  const model = stamp?.model ?? served.id;
  if (outcome.cache) reply.headers(cacheHeaders(outcome.cache.note));
  if (outcome.kind === 'json') {
    return {
      id,
      object: 'chat.completion' as const,
      created,
      model,
      choices: outcome.result.choices,
      usage: usageBody(outcome.result.usage),
    };
  }
  const includeUsage = body.stream_options?.include_usage === true;
  const frames = chatChunkFrames({ id, created, model });
  const produce = async (writer: SseWriter): Promise<void> => {
    const started = new Set<number>();
    let mustWait = false;
    const send = (json: string): void => {
      if (!writer.queueJsonText(json)) mustWait = true;
    };
    const toolCalls = new WholeToolCalls((event) => {
      if (event.type === 'usage') {
        if (includeUsage) send(frames.chunk([], { usage: usageBody(event.usage) }));
        return;
      }
      const firstOfChoice = !started.has(event.index);
      started.add(event.index);
      if (event.type === 'delta') {
        if (!firstOfChoice && event.content !== undefined && !event.tool_calls)
          return send(frames.text(event.index, event.content));
        // Every delta carries content, '' where it has no text (the role, tool calls), as Mistral's API sends them.
        const delta = {
          ...(firstOfChoice ? { role: 'assistant' } : {}),
          content: event.content ?? '',
          ...(event.tool_calls ? { tool_calls: event.tool_calls } : {}),
        };
        send(frames.chunk([{ index: event.index, delta, finish_reason: null }]));
      } else {
        send(
          frames.chunk([
            {
              index: event.index,
              delta: firstOfChoice ? { role: 'assistant', content: '' } : { content: '' },
              finish_reason: event.finish_reason,
            },
          ]),
        );
      }
    });
    // Frames are written as events come, with no promise per frame; the loop waits only when the socket is full.
    for await (const batch of outcome.batches) {
      if (writer.closed) break;
      for (const event of batch) toolCalls.push(event);
      if (mustWait) {
        mustWait = false;
        await writer.drained();
      }
    }
    toolCalls.end();
  };
  return outcome.whole
    ? sendWholeEventStream(request, reply, produce)
    : sendEventStream(request, reply, served.provider.id, produce);
}
