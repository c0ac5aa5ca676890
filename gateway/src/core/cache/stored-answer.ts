import type { ChatResult, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';

/** What a replay repeats of the original answer besides its content: its id, its time and the model that served it. */
export interface AnswerStamp {
  id: string;
  created: number;
  model: string;
}

/** An answer as the cache keeps it: whole, or a stream's events in the batches (upstream chunks) they came in. */
export interface StoredAnswer {
  stamp: AnswerStamp;
  usage: TokenUsage;
  answer: { kind: 'json'; result: ChatResult } | { kind: 'stream'; batches: ChatStreamEvent[][] };
}

/**
 * A stored stream's events as one batch: the replay has them all at hand, so its writer takes them
 * in one step and writes the original's events (its SSE frames) in the original's order, at once.
 */
export async function* replayedBatches(batches: ChatStreamEvent[][]): AsyncGenerator<readonly ChatStreamEvent[]> {
  yield batches.flat();
}

/**
 * The batches as they pass, copied; `stored` gets them once the stream ended whole (not when the
 * client left or the provider failed), and the stream ends only once they are kept, so a client that
 * read `[DONE]` finds the entry.
 */
export async function* recordedBatches(
  batches: AsyncIterable<readonly ChatStreamEvent[]>,
  stored: (batches: ChatStreamEvent[][], usage: TokenUsage) => Promise<void>,
): AsyncGenerator<readonly ChatStreamEvent[]> {
  const kept: ChatStreamEvent[][] = [];
  let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  for await (const batch of batches) {
    kept.push([...batch]);
    for (const event of batch) if (event.type === 'usage') usage = event.usage;
    yield batch;
  }
  await stored(kept, usage);
}
