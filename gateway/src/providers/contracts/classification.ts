import type { ClassifierInput } from './moderation.js';

export interface ClassificationRequest {
  model: string;
  input: ClassifierInput;
  signal: AbortSignal;
}

/** One entry's scores per target (a classifier may judge several, e.g. `intent` and `language`), each a score per label. */
export type ClassificationScores = Record<string, { scores: Record<string, number> }>;

export interface ClassificationResult {
  results: ClassificationScores[];
  prompt_tokens: number;
}

export interface ClassificationProvider {
  classify(request: ClassificationRequest): Promise<ClassificationResult>;
}
