/** What every chunk of one streamed chat completion repeats. */
export interface ChatChunkHead {
  id: string;
  /** Unix seconds, an integer. */
  created: number;
  model: string;
}

/**
 * The JSON text of the `chat.completion.chunk` frames of one streamed chat completion, the bytes
 * `JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, usage })` gives,
 * with the repeated fields serialised once per stream (docs/performance.md, "What holds").
 */
export class ChatChunkFrames {
  private readonly head: string;

  constructor({ id, created, model }: ChatChunkHead) {
    this.head = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"choices":`;
  }

  /** A chunk with these choices, and `usage` when given. */
  chunk(choices: readonly unknown[], usage?: unknown): string {
    const usageMember = usage === undefined ? '' : `,"usage":${JSON.stringify(usage)}`;
    return `${this.head}${JSON.stringify(choices)}${usageMember}}`;
  }

  /** A chunk whose one choice adds only text (most chunks): `chunk([{ index, delta: { content }, finish_reason: null }])`. */
  text(index: number, content: string): string {
    return `${this.head}[{"index":${index},"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}`;
  }
}
