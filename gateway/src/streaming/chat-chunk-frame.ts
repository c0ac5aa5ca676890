/** What every chunk of one streamed chat completion repeats. */
export interface ChatChunkHead {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
}

/** The JSON text of the `chat.completion.chunk` frames of one stream, fields in OpenAI's order. */
export interface ChatChunkFrames {
  /** Any chunk; `more` (usage, a document answer's citations) after the choices, field by field, when given. */
  chunk(choices: readonly unknown[], more?: Record<string, unknown>): string;
  /** A chunk that carries only text for one choice: the same bytes as chunk() of that delta. */
  text(index: number, content: string): string;
}

/**
 * The fields every chunk repeats are serialised once per stream, and a text-only chunk (most of a
 * stream) is written as text: measured in docs/performance.md ("Chat chunks around a head serialised once").
 */
export function chatChunkFrames({ id, created, model }: ChatChunkHead): ChatChunkFrames {
  const head = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"choices":`;
  return {
    chunk: (choices, more) => {
      const fields = more === undefined ? '{}' : JSON.stringify(more);
      return `${head}${JSON.stringify(choices)}${fields === '{}' ? '}' : `,${fields.slice(1)}`}`;
    },
    text: (index, content) =>
      `${head}[{"index":${index},"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}`,
  };
}
