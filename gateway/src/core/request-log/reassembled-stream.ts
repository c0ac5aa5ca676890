/** A streamed answer put back together as the one JSON answer the same request would get unstreamed. */
export interface ReassembledStream {
  body: unknown;
  /** The stream's error frame (the documented error shape), when it failed after it started. */
  error?: { code: string; message: string };
}

interface Choice {
  index: number;
  role?: string;
  content: string;
  text: string;
  toolCalls: unknown[];
  finishReason: unknown;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The final response of a Responses API stream (its `response.completed`, `.failed` or `.incomplete` event). */
const FINAL_RESPONSE_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete']);

/**
 * The frames of a stream (each `data:` JSON, `[DONE]` left out) as one answer: the chunks of a chat
 * or text completion as a `chat.completion` or `text_completion` with each choice's content, tool
 * calls (sent whole by the gateway) and finish reason, and the last usage; a Responses stream as its
 * final response; anything else as its last frame.
 */
export function reassembledStream(frames: readonly unknown[]): ReassembledStream {
  let error: ReassembledStream['error'];
  let finalResponse: unknown;
  let head: Json | undefined;
  let usage: unknown;
  const choices = new Map<number, Choice>();
  for (const frame of frames) {
    if (!isObject(frame)) continue;
    if (frame.object === 'error') {
      error = { code: String(frame.code ?? 'stream_failed'), message: String(frame.message ?? '') };
      continue;
    }
    if (typeof frame.type === 'string' && FINAL_RESPONSE_EVENTS.has(frame.type)) finalResponse = frame.response;
    if (!Array.isArray(frame.choices)) continue;
    head ??= frame;
    if (frame.usage) usage = frame.usage;
    for (const part of frame.choices) {
      if (!isObject(part)) continue;
      const index = typeof part.index === 'number' ? part.index : 0;
      let choice = choices.get(index);
      if (!choice) choices.set(index, (choice = { index, content: '', text: '', toolCalls: [], finishReason: null }));
      const delta = isObject(part.delta) ? part.delta : undefined;
      if (typeof delta?.role === 'string') choice.role = delta.role;
      if (typeof delta?.content === 'string') choice.content += delta.content;
      if (Array.isArray(delta?.tool_calls)) choice.toolCalls.push(...(delta.tool_calls as unknown[]));
      if (typeof part.text === 'string') choice.text += part.text;
      if (part.finish_reason !== undefined && part.finish_reason !== null) choice.finishReason = part.finish_reason;
    }
  }
  const withError = <T extends object>(answer: T): T & Partial<ReassembledStream> =>
    error ? { ...answer, error } : answer;
  if (finalResponse !== undefined) return withError({ body: finalResponse });
  if (!head) {
    const last = frames.findLast((frame) => !isObject(frame) || frame.object !== 'error');
    return withError({ body: last ?? null });
  }
  const isChat = head.object === 'chat.completion.chunk';
  const ordered = [...choices.values()].sort((a, b) => a.index - b.index);
  return withError({
    body: {
      id: head.id,
      object: isChat ? 'chat.completion' : head.object,
      created: head.created,
      model: head.model,
      choices: ordered.map((choice) =>
        isChat
          ? {
              index: choice.index,
              message: {
                role: choice.role ?? 'assistant',
                content: choice.content,
                ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}),
              },
              finish_reason: choice.finishReason,
            }
          : { index: choice.index, text: choice.text, finish_reason: choice.finishReason },
      ),
      ...(usage ? { usage } : {}),
    },
  });
}
