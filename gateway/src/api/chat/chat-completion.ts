import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../../core/ids/ids.js';
import type { ChatOutcome, ChatService } from '../../core/chat/chat-service.js';
import type { ModelRoute } from '../../core/routing/model-registry.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { ChatRequest } from '../../providers/contracts/chat.js';
import type { ChatMessage, ContentPart, ToolCall } from '../../wire/chat-message-schemas.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { sendEventStream } from '../_shared/event-stream.js';
import { batchesOf } from '../../streaming/event-batches.js';
import { usageBody } from '../_shared/usage-body.js';
import { samplingParams } from '../_shared/sampling-schema.js';
import type { ChatBodyType } from './chat-schemas.js';
import { WholeToolCalls } from './whole-tool-calls.js';

type BodyMessage = NonNullable<ChatBodyType['messages']>[number];

/** Clients send tool-call arguments as JSON text (OpenAI) or as an object (some Mistral clients). */
function normaliseMessage(message: BodyMessage): ChatMessage {
  const content = message.content ?? null;
  return {
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
    ...(message.name ? { name: message.name } : {}),
    ...(message.tool_call_id ? { tool_call_id: message.tool_call_id } : {}),
    ...(message.tool_calls
      ? {
          tool_calls: message.tool_calls.map((call): ToolCall => ({
            id: call.id,
            type: 'function',
            function: {
              name: call.function.name,
              arguments:
                typeof call.function.arguments === 'string'
                  ? call.function.arguments
                  : JSON.stringify(call.function.arguments),
            },
          })),
        }
      : {}),
  };
}

export function toChatRequest(
  body: ChatBodyType,
  messages: NonNullable<ChatBodyType['messages']>,
  signal: AbortSignal,
): Omit<ChatRequest, 'model'> {
  return {
    ...samplingParams(body),
    messages: messages.map(normaliseMessage),
    response_format: body.response_format ?? undefined,
    tools: body.tools ?? undefined,
    tool_choice: body.tool_choice ?? undefined,
    parallel_tool_calls: body.parallel_tool_calls,
    signal,
  };
}

/** A chat completion in OpenAI's shape: plain JSON, or chunks over SSE when the client streams. */
export function chatCompletionAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  body: ChatBodyType,
  outcome: ChatOutcome,
) {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const served = outcome.route;
  if (outcome.kind === 'json') {
    return {
      id,
      object: 'chat.completion' as const,
      created,
      model: served.id,
      choices: outcome.result.choices,
      usage: usageBody(outcome.result.usage),
    };
  }
  const includeUsage = body.stream_options?.include_usage === true;
  // The fields every chunk repeats are serialised once per stream; each chunk adds its choices (and usage).
  const head = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(served.id)},"choices":`;
  const chunk = (choices: unknown[], usage?: unknown) =>
    `${head}${JSON.stringify(choices)}${usage === undefined ? '' : `,"usage":${JSON.stringify(usage)}`}}`;
  // Most chunks carry only text: the same bytes as chunk([{ index, delta: { content }, finish_reason: null }]), built as text.
  const textChunk = (index: number, content: string) =>
    `${head}[{"index":${index},"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}`;
  return sendEventStream(request, reply, served.provider.id, async (writer) => {
    const started = new Set<number>();
    let mustWait = false;
    const send = (json: string): void => {
      if (!writer.queueJsonText(json)) mustWait = true;
    };
    const toolCalls = new WholeToolCalls((event) => {
      if (event.type === 'usage') {
        if (includeUsage) send(chunk([], usageBody(event.usage)));
        return;
      }
      const firstOfChoice = !started.has(event.index);
      started.add(event.index);
      if (event.type === 'delta') {
        if (!firstOfChoice && event.content !== undefined && !event.tool_calls)
          return send(textChunk(event.index, event.content));
        // Every delta carries content, '' where it has no text (the role, tool calls), as Mistral's API sends them.
        const delta = {
          ...(firstOfChoice ? { role: 'assistant' } : {}),
          content: event.content ?? '',
          ...(event.tool_calls ? { tool_calls: event.tool_calls } : {}),
        };
        send(chunk([{ index: event.index, delta, finish_reason: null }]));
      } else {
        send(
          chunk([
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
    for await (const batch of batchesOf(outcome.events)) {
      if (writer.closed) break;
      for (const event of batch) toolCalls.push(event);
      if (mustWait) {
        mustWait = false;
        await writer.drained();
      }
    }
    toolCalls.end();
  });
}

/** A chat completion on a chat route: the turn parsed from the body, run by the chat service, answered in OpenAI's shape. */
export async function chatCompletion(
  chat: ChatService,
  request: FastifyRequest,
  reply: FastifyReply,
  body: ChatBodyType,
  messages: NonNullable<ChatBodyType['messages']>,
  route: ModelRoute,
) {
  const signal = clientAbortSignal(reply);
  const outcome = await chat.complete(
    route,
    toChatRequest(body, messages, signal),
    body.stream === true,
    request.billing,
    signal,
  );
  return chatCompletionAnswer(request, reply, body, outcome);
}
