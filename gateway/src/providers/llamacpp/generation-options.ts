import type { LlamaContextSequence } from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import type { FinishReason, SamplingParams } from '../contracts/sampling.js';

export interface GenerationOptions {
  maxTokens: number;
  temperature: number;
  topP?: number;
  seed?: number;
  customStopTriggers?: string[];
  repeatPenalty?: { presencePenalty?: number; frequencyPenalty?: number };
}

/** The OpenAI default; node-llama-cpp's own default (0, greedy) would surprise API clients. */
const DEFAULT_TEMPERATURE = 1;

/**
 * Sampling settings for node-llama-cpp. Without `max_tokens` a generation may use the rest of the
 * context, never more: a random or looping model would otherwise shift the context forever.
 */
export function toGenerationOptions(
  request: SamplingParams,
  promptTokens: number,
  contextSize: number,
): GenerationOptions {
  // node-llama-cpp reads maxTokens 0 as "no limit".
  if (request.max_tokens !== undefined && request.max_tokens < 1) {
    throw new ProviderError('invalid_request', 'max_tokens must be at least 1.', { param: 'max_tokens' });
  }
  if (request.n !== undefined && request.n < 1) {
    throw new ProviderError('invalid_request', 'n must be at least 1.', { param: 'n' });
  }
  const room = contextSize - promptTokens;
  if (room <= 0) {
    throw new ProviderError(
      'invalid_request',
      `The prompt is ${promptTokens} tokens long; this local model's context holds ${contextSize}. Shorten the prompt or raise context_size.`,
      {
        param: 'messages',
        code: 'context_length_exceeded',
      },
    );
  }
  const stops = request.stop?.filter((stop) => stop.length > 0);
  return {
    maxTokens: Math.min(request.max_tokens ?? room, room),
    temperature: request.temperature ?? DEFAULT_TEMPERATURE,
    topP: request.top_p,
    seed: request.seed,
    customStopTriggers: stops && stops.length > 0 ? stops : undefined,
    // Only when asked: an object here replaces node-llama-cpp's default repeat penalty settings.
    repeatPenalty:
      request.presence_penalty === undefined && request.frequency_penalty === undefined
        ? undefined
        : { presencePenalty: request.presence_penalty, frequencyPenalty: request.frequency_penalty },
  };
}

export type StopReason =
  'eogToken' | 'stopGenerationTrigger' | 'functionCalls' | 'maxTokens' | 'abort' | 'customStopTrigger';

export function toFinishReason(stopReason: StopReason): FinishReason {
  switch (stopReason) {
    case 'maxTokens':
      return 'length';
    case 'functionCalls':
      return 'tool_calls';
    case 'abort':
      return 'error';
    default:
      return 'stop';
  }
}

/**
 * Counts the tokens sampled on `sequence` from now on. node-llama-cpp's `onToken` leaves out tokens
 * it holds back (possible stop-trigger prefixes), so the sequence's meter is the honest count.
 */
export function startOutputTokenCount(sequence: LlamaContextSequence): () => number {
  const before = sequence.tokenMeter.getState();
  return () => sequence.tokenMeter.diff(before).usedOutputTokens;
}
