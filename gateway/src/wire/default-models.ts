/** The model a request names when it names none (and the console's preselection). */
export const DEFAULT_CHAT_MODEL = 'svc-large-3-2512';
export const DEFAULT_OCR_MODEL = 'svc-ocr-3-2512';
export const DEFAULT_VISION_MODEL = 'svc-vision-3-1-2505';
export const DEFAULT_TRANSCRIPTION_MODEL = 'svc-transcribe-1-2507';
/** The built-in embedding model (all-MiniLM-L6-v2, shipped with the app). */
export const DEFAULT_EMBEDDING_MODEL = 'svc-embed-local';
/** The built-in moderation and classification model (the embedding model scoring against labelled examples). */
export const DEFAULT_MODERATION_MODEL = 'svc-moderation-local';

/**
 * Names Mistral's and OpenAI's docs and SDK examples send, per model that serves the same thing here
 * (the local engines and the default chat model). A name leads to its model only while no route has
 * it as id or alias, so a config or console route of that name always wins; /v1/models lists them
 * among the model's aliases.
 */
export const CLIENT_MODEL_NAMES: Readonly<Record<string, readonly string[]>> = {
  [DEFAULT_OCR_MODEL]: ['mistral-ocr-latest', 'mistral-ocr-2512', 'mistral-ocr-2505', 'mistral-ocr-2503'],
  [DEFAULT_EMBEDDING_MODEL]: [
    'mistral-embed',
    'mistral-embed-2312',
    'text-embedding-3-small',
    'text-embedding-3-large',
    'text-embedding-ada-002',
  ],
  [DEFAULT_MODERATION_MODEL]: [
    'omni-moderation-latest',
    'omni-moderation-2024-09-26',
    'text-moderation-latest',
    'text-moderation-stable',
    'mistral-moderation-latest',
    'mistral-moderation-2411',
  ],
  [DEFAULT_TRANSCRIPTION_MODEL]: [
    'voxtral-mini-latest',
    'voxtral-mini-2507',
    'voxtral-mini-transcribe',
    'whisper-1',
    'gpt-4o-transcribe',
    'gpt-4o-mini-transcribe',
  ],
  [DEFAULT_CHAT_MODEL]: [
    'mistral-large-latest',
    'mistral-large-2512',
    'mistral-medium-latest',
    'mistral-small-latest',
    'codestral-latest',
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-3.5-turbo-instruct',
  ],
};
