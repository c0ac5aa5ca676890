import { setImmediate as nextTurn } from 'node:timers/promises';
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
 * A stored stream's batches, one per turn of the event loop: the response's body joins the frames
 * of one turn into one write, so the replay leaves in the chunks the original did.
 */
export async function* replayedBatches(batches: ChatStreamEvent[][]): AsyncGenerator<readonly ChatStreamEvent[]> {
  for (const [index, batch] of batches.entries()) {
    if (index > 0) await nextTurn();
    yield batch;
  }
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
