/** The endpoints a batch line may target (OpenAI's batch `endpoint` / `url`). */
export const BATCH_ENDPOINTS = [
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
  '/v1/ocr',
  '/v1/vision/analyze',
  '/v1/vision/generate',
] as const;
export type BatchEndpoint = (typeof BATCH_ENDPOINTS)[number];

export const isBatchEndpoint = (path: string): path is BatchEndpoint =>
  (BATCH_ENDPOINTS as readonly string[]).includes(path);
