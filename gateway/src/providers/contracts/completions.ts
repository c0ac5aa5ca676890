import type { FinishReason, SamplingParams, TokenUsage } from './sampling.js';

export interface CompletionRequest extends SamplingParams {
  prompt: string;
  /** Fill in the middle: the text after the gap (only providers with `fillInTheMiddle` read it). */
  suffix?: string;
}

export interface CompletionResult {
  choices: { index: number; text: string; finish_reason: FinishReason }[];
  usage: TokenUsage;
}

export type CompletionStreamEvent =
  | { type: 'delta'; index: number; text: string }
  | { type: 'finish'; index: number; finish_reason: FinishReason }
  | { type: 'usage'; usage: TokenUsage };

/** The ProviderError code of a model that cannot fill a gap on a backend that can for other models (a GGUF without FIM tokens). */
export const FIM_NOT_SUPPORTED = 'fim_not_supported';

export interface CompletionProvider {
  /** True when the backend fills the gap between `prompt` and `suffix` (Mistral's FIM endpoint; llama.cpp infill on GGUFs with FIM tokens). */
  fillInTheMiddle?: boolean;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  completeStream(request: CompletionRequest): Promise<AsyncIterable<CompletionStreamEvent>>;
}
