export interface EmbeddingRequest {
  model: string;
  input: string[];
  dimensions?: number;
  signal: AbortSignal;
}

export interface EmbeddingResult {
  vectors: number[][];
  prompt_tokens: number;
}

export interface EmbeddingProvider {
  embed(request: EmbeddingRequest): Promise<EmbeddingResult>;
}
