import type { ChatMessage } from '../../../wire/chat-message-schemas.js';
import type { ToolChoice } from '../../../wire/tool-schemas.js';

/**
 * Where a backend's spelling of the OpenAI wire format differs. The shared request builders take
 * a dialect, so providers that speak "OpenAI with accents" (Mistral) reuse them.
 */
export interface OpenAiDialect {
  /** Field name of the sampling seed. */
  seedField: 'seed' | 'random_seed';
  /** Ask for a usage chunk in streams with `stream_options: {include_usage: true}`. */
  streamUsageOption: boolean;
  /** Field name of the requested embedding size. */
  embeddingDimensionsField: 'dimensions' | 'output_dimension';
  /** `encoding_format` to request for embeddings, if any (answers in float or base64 are both read). */
  embeddingEncoding?: 'float' | 'base64';
  toolChoice(choice: ToolChoice): unknown;
  /** How the backend spells a message's role, when it spells some differently (absent: as they are). */
  role?(role: ChatMessage['role']): string;
}

export const openAiDialect: OpenAiDialect = {
  seedField: 'seed',
  streamUsageOption: true,
  embeddingDimensionsField: 'dimensions',
  embeddingEncoding: 'float',
  // OpenAI has no 'any'; it is Mistral's word for 'required'.
  toolChoice: (choice) => (choice === 'any' ? 'required' : choice),
};
