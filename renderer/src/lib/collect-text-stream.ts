import type { Usage } from './gateway-types';
import type { StreamResponse } from './post-stream';

export interface StreamStats {
  timeToFirstTokenMs: number | null;
  tokensPerSecond: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
  cost: number | null;
  /** The request's id, by which its log entry (and the cost of a streamed answer) is found. */
  requestId?: string | null;
}

/** Below this, time between the first and the last fragment says nothing about the model's speed. */
export const MIN_GENERATION_MS = 250;

export interface UsageFrame {
  usage?: Usage | null;
}

/**
 * Accumulates the text of a streamed completion, reporting the whole text after every fragment,
 * and measures time to first token and generation speed (completion tokens over the time from
 * the first fragment to the end).
 */
export async function collectTextStream<T extends UsageFrame>(
  stream: StreamResponse<T>,
  pick: (frame: T) => string | null | undefined,
  onText: (text: string) => void,
  startedAt: number,
  now: () => number = () => performance.now(),
): Promise<{ text: string; stats: StreamStats }> {
  let text = '';
  let firstAt: number | null = null;
  let usage: Usage | null = null;
  for await (const frame of stream.frames) {
    if (frame.usage) usage = frame.usage;
    const fragment = pick(frame);
    if (!fragment) continue;
    firstAt ??= now();
    text += fragment;
    onText(text);
  }
  const endedAt = now();
  const completionTokens = usage?.completion_tokens ?? null;
  // A short answer can arrive in one burst (a millisecond for the lot): measure it over the whole request then.
  const burst = firstAt !== null && endedAt - firstAt < MIN_GENERATION_MS;
  const generationSeconds = firstAt !== null ? (burst ? endedAt - startedAt : endedAt - firstAt) / 1000 : 0;
  return {
    text,
    stats: {
      timeToFirstTokenMs: firstAt !== null ? firstAt - startedAt : null,
      tokensPerSecond: completionTokens !== null && generationSeconds > 0 ? completionTokens / generationSeconds : null,
      promptTokens: usage?.prompt_tokens ?? null,
      completionTokens,
      cost: stream.cost,
      requestId: stream.requestId,
    },
  };
}

export const isAbortError = (error: unknown): boolean =>
  error instanceof DOMException ? error.name === 'AbortError' : error instanceof Error && error.name === 'AbortError';
