/** What every chunk of one streamed chat completion repeats. */
export interface ChatChunkHead {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
}

/** The JSON text of one `chat.completion.chunk` frame, its fields in OpenAI's order; `usage` only when given. */
export function frameChatChunk(head: ChatChunkHead, choices: readonly unknown[], usage?: unknown): string {
  const { id, created, model } = head;
  return JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices,
    ...(usage === undefined ? {} : { usage }),
  });
}
