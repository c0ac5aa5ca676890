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

export interface CompletionProvider {
  /** True when the backend fills the gap between `prompt` and `suffix` (Mistral's FIM endpoint). */
  fillInTheMiddle?: boolean;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  completeStream(request: CompletionRequest): Promise<AsyncIterable<CompletionStreamEvent>>;
}
