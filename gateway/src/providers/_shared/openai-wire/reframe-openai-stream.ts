import { ProviderError } from '../provider-error.js';
import { expectArray, isRecord, malformedResponse, optionalNumber, type JsonRecord } from '../http/wire-guards.js';
import { readUpstreamErrorDetails } from '../http/upstream-error-details.js';
import { readSseEventBatches } from '../../../streaming/sse-reader.js';
import { batchedEvents, type BatchedEvents } from '../../../streaming/event-batches.js';
import type { FinishReason, TokenUsage } from '../../contracts/sampling.js';
import { approximateTokens } from '../approximate-tokens.js';
import { readTokenUsage, toFinishReason } from './answer-values.js';

export type FinishEvent = { type: 'finish'; index: number; finish_reason: FinishReason };
export type UsageEvent = { type: 'usage'; usage: TokenUsage };

export interface ReframeOptions<D> {
  providerName: string;
  /** Counted approximately, used only when the upstream reports no usage. */
  promptTokens: number;
  /** The delta event of one choice in one chunk (if it carries anything), and the text it adds. */
  delta(choice: JsonRecord, index: number): { event?: D; text: string };
  /**
   * The delta event of a frame that carries nothing but text for one choice (most frames of a chat
   * stream), read without parsing the whole frame; `delta` would return the same event for it.
   */
  contentDelta?(content: string, index: number): D;
}

// Runs of plain characters, then an escape and another run: the same strings as `"(?:[^"\\]|\\.)*"`,
// without trying an alternation per character (1.4 to 2.6 times faster on chat frames).
const JSON_STRING = String.raw`"[^"\\]*(?:\\.[^"\\]*)*"`;
/**
 * A chat chunk with one choice whose delta is only `content`, no finish reason, no usage and no
 * error: the fields OpenAI-style servers send around it (id, model, fingerprint, `logprobs: null`,
 * `usage: null`) and nothing else. Anything else (role, tool calls, finish reasons, usage, errors,
 * other fields, another order) takes the full parse.
 */
const CONTENT_ONLY_FRAME = new RegExp(
  String.raw`^\{"id":${JSON_STRING},"object":"chat\.completion\.chunk","created":\d+,"model":${JSON_STRING}` +
    String.raw`(?:,"service_tier":(?:${JSON_STRING}|null))?(?:,"system_fingerprint":(?:${JSON_STRING}|null))?` +
    String.raw`,"choices":\[\{"index":(\d+),"delta":\{"content":(${JSON_STRING})\}(?:,"logprobs":null)?,"finish_reason":null\}\](?:,"usage":null)?\}$`,
);

/** What only `JSON.parse` can read in a string literal: an escape, or a control character (which JSON refuses). */
// eslint-disable-next-line no-control-regex -- JSON refuses raw control characters in a string; finding them is the point.
const NEEDS_PARSE = /[\\\x00-\x1f]/;

/** The text and choice of a content-only chat frame (CONTENT_ONLY_FRAME), or undefined for any other frame. */
export function contentOnlyFrame(data: string): { index: number; content: string } | undefined {
  const match = CONTENT_ONLY_FRAME.exec(data);
  if (!match) return undefined;
  const index = Number(match[1]);
  const literal = match[2];
  // Most tokens have neither: their text is what lies between the quotes (JSON.parse costs several times the slice).
  if (!NEEDS_PARSE.test(literal)) return { index, content: literal.slice(1, -1) };
  try {
    return { index, content: JSON.parse(literal) as string };
  } catch {
    // An escape JSON does not allow: the full parse reports the frame.
    return undefined;
  }
}

/**
 * Re-frames an upstream OpenAI-style SSE body (`chat.completion.chunk` or `text_completion`
 * frames, `[DONE]` last) into our stream events: deltas, one finish per choice, then usage once
 * (the upstream's, or an approximate count). An upstream error frame, a frame that is not JSON, or
 * a stream that ends before any choice finished is a ProviderError, thrown after the events before it.
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
    const plain = contentDelta && contentOnlyFrame(data);
    if (plain) {
      // The same event and text the full parse below gives for this frame, without building the frame's objects.
      if (plain.content === '') return;
      this.completionText += plain.content;
      events.push(contentDelta(plain.content, plain.index));
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

  /** The last event: the upstream's usage, or an approximate count; a stream cut before any choice finished is a failure. */
  usage(): UsageEvent {
    const { providerName, promptTokens } = this.options;
    if (!this.sawDone && this.finished.size === 0) {
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
