/** The closed set of capabilities a model route can serve. */
export const CAPABILITIES = [
  'chat',
  'completions',
  'embeddings',
  'ocr',
  'documents',
  'vision',
  'image_generation',
  'transcription',
  'moderation',
  'classification',
] as const;
export type Capability = (typeof CAPABILITIES)[number];
