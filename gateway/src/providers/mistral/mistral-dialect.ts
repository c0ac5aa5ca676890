import type { OpenAiDialect } from '../_shared/openai-wire/openai-dialect.js';

/**
 * Mistral's spelling of the OpenAI wire format: `random_seed`, `tool_choice: 'any'` for "must call
 * a tool", `output_dimension` for embeddings, no `developer` role, and no `stream_options` (its
 * streams end with a usage chunk on their own).
 */
export const mistralDialect: OpenAiDialect = {
  seedField: 'random_seed',
  streamUsageOption: false,
  embeddingDimensionsField: 'output_dimension',
  toolChoice: (choice) => (choice === 'required' ? 'any' : choice),
  role: (role) => (role === 'developer' ? 'system' : role),
};
