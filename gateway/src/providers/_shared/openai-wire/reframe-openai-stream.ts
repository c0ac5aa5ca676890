import { ProviderError } from '../provider-error.js';
import { expectArray, isRecord, malformedResponse, optionalNumber, type JsonRecord } from '../http/wire-guards.js';
import { readUpstreamErrorDetails } from '../http/upstream-error-details.js';
import { readSseEventBatches } from '../../../streaming/sse-reader.js';
import { batchedEvents, type BatchedEvents } from '../../../streaming/event-batches.js';
import type { FinishReason, TokenUsage } from '../../contracts/sampling.js';
import { approximateTokens } from '../approximate-tokens.js';
import { readTokenUsage, toFinishReason } from './answer-values.js';
import { readContentOnlyFrame } from './content-only-frame.js';

export type FinishEvent = { type: 'finish'; index: number; finish_reason: FinishReason };
export type UsageEvent = { type: 'usage'; usage: TokenUsage };

export interface ReframeOptions<D> {
  providerName: string;
  /** Counted approximately, used only when the upstream reports no usage. */
  promptTokens: number;
  /** The choices asked for (`n`, default 1): a stream that ends without `[DONE]` is whole only once each finished. */
  choices?: number;
  /** The delta event of one choice in one chunk (if it carries anything), and the text it adds. */
  delta(choice: JsonRecord, index: number): { event?: D; text: string };
  /**
   * The delta event of a frame that carries nothing but text for one choice (most frames of a chat
   * stream, read by `readContentOnlyFrame` without parsing the whole frame); `delta` would return the
   * same event for it. Without it every frame is parsed.
   */
  contentDelta?(content: string, index: number): D;
}

/**
 * Re-frames an upstream OpenAI-style SSE body (`chat.completion.chunk` or `text_completion`
 * frames, `[DONE]` last) into our stream events: deltas, one finish per choice, then usage once
 * (the upstream's, or an approximate count). An upstream error frame, a frame that is not JSON, or
 * a stream that ends without `[DONE]` before every choice finished is a ProviderError, thrown after
 * the events before it.
 * The events come in the batches of the upstream's chunks (streaming/event-batches.ts).
 */
export function reframeOpenAiStream<D>(
  body: AsyncIterable<Uint8Array>,
  options: ReframeOptions<D>,
): BatchedEvents<D | FinishEvent | UsageEvent> {
  return batchedEvents(reframeBatches(body, options));
}

type ReframedEvent<D> = D | FinishEvent | UsageEvent;

async function* reframeBatches<D>(
  body: AsyncIterable<Uint8Array>,
  options: ReframeOptions<D>,
): AsyncGenerator<Array<ReframedEvent<D>>> {
  const frames = new FrameReader(options);
  try {
    for await (const batch of readSseEventBatches(body)) {
      const events: Array<ReframedEvent<D>> = [];
      try {
        for (const event of batch) frames.read(event.data.trim(), events);
      } finally {
        // The events before a failing frame are read before the failure.
        if (events.length > 0) yield events;
      }
    }
  } catch (error) {
    // Everything was received; a connection that fails after [DONE] loses nothing.
    if (!frames.sawDone) throw error;
  }
  yield [frames.usage()];
}

/** The state of one re-framed stream: what it has seen so far, and the events each frame adds. */
class FrameReader<D> {
  sawDone = false;
  private reportedUsage: TokenUsage | undefined;
  private completionText = '';
  private readonly finished = new Set<number>();

  constructor(private readonly options: ReframeOptions<D>) {}

  /** Adds the events of one frame's data to `events`; throws on an error frame or one that is not a chunk. */
  read(data: string, events: Array<ReframedEvent<D>>): void {
    const { providerName, contentDelta } = this.options;
    if (this.sawDone || data === '') return;
    if (data === '[DONE]') {
      // Read on to the end of the body instead of leaving the loop: leaving destroys the body and
      // with it the keep-alive connection, and a new connection per stream halves the throughput.
      this.sawDone = true;
      return;
    }
    const contentOnly = contentDelta && readContentOnlyFrame(data);
    if (contentOnly) {
      if (contentOnly.content === '') return;
      this.completionText += contentOnly.content;
      events.push(contentDelta(contentOnly.content, contentOnly.index));
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw malformedResponse(providerName, 'a stream frame is not JSON');
    }
    if (!isRecord(chunk)) throw malformedResponse(providerName, 'a stream frame is not an object');
    if ((chunk.error !== undefined && chunk.error !== null) || chunk.object === 'error') {
      const message = readUpstreamErrorDetails(data).message ?? 'unknown error';
      throw new ProviderError('upstream', `${providerName} failed mid-stream: ${message}`);
    }
    this.reportedUsage = readTokenUsage(chunk.usage) ?? this.reportedUsage;
    const choices =
      chunk.choices === undefined || chunk.choices === null ? [] : expectArray(chunk.choices, providerName, 'choices');
    for (const [position, choice] of choices.entries()) {
      if (!isRecord(choice)) throw malformedResponse(providerName, 'a choice is not an object');
      const index = optionalNumber(choice.index) ?? position;
      const { event: delta, text } = this.options.delta(choice, index);
      this.completionText += text;
      if (delta !== undefined) events.push(delta);
      if (typeof choice.finish_reason === 'string' && !this.finished.has(index)) {
        this.finished.add(index);
        events.push({ type: 'finish', index, finish_reason: toFinishReason(choice.finish_reason) });
      }
    }
  }

  /** The last event: the upstream's usage, or an approximate count; a stream cut before every choice finished is a failure. */
  usage(): UsageEvent {
    const { providerName, promptTokens, choices = 1 } = this.options;
    if (!this.sawDone && this.finished.size < choices) {
      throw new ProviderError('upstream', `${providerName} ended the stream before it finished.`, {
        code: 'upstream_stream_truncated',
      });
    }
    return {
      type: 'usage',
      usage: this.reportedUsage ?? {
        prompt_tokens: promptTokens,
        completion_tokens: approximateTokens(this.completionText),
      },
    };
  }
}
