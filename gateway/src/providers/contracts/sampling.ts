/** What chat and text completions share: sampling parameters, finish reasons, token usage. */

/** Sampling parameters shared by chat and text completions. */
export interface SamplingParams {
  /** The model name the backend knows (route's upstream_model, or the model id). */
  model: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
  /** OpenAI/Mistral penalties in [-2, 2]; providers without them ignore them (README, API notes). */
  presence_penalty?: number;
  frequency_penalty?: number;
  /** Number of choices; providers that cannot do n > 1 natively loop. */
  n?: number;
  signal: AbortSignal;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}
