import type { ChatMessage } from '../../wire/chat-message-schemas.js';

/** What one moderation or classification request reads: texts, or (Mistral's chat endpoints) whole conversations. One result per entry. */
export type ClassifierInput = { texts: string[] } | { conversations: ChatMessage[][] };

/** Whose category names the client reads; an upstream answers in its own, the local classifier in these. */
export type CategoryNames = 'openai' | 'mistral';

export interface ModerationRequest {
  model: string;
  input: ClassifierInput;
  names?: CategoryNames;
  signal: AbortSignal;
}

/** One entry's verdict: a flag and a score per category, under the category names of the model that judged it. */
export interface ModerationVerdict {
  categories: Record<string, boolean>;
  category_scores: Record<string, number>;
  /** Set by upstreams that say it themselves (OpenAI); otherwise any category that is true. */
  flagged?: boolean;
}

export interface ModerationResult {
  results: ModerationVerdict[];
  prompt_tokens: number;
}

export interface ModerationProvider {
  moderate(request: ModerationRequest): Promise<ModerationResult>;
}
