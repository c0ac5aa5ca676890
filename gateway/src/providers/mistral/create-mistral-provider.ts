import type { ProviderFactory, ProviderInstance } from '../types.js';
import { UpstreamClient } from '../_shared/http/upstream-client.js';
import { createOpenAiChat } from '../openai-compatible/openai-chat.js';
import { createOpenAiEmbeddings } from '../openai-compatible/openai-embeddings.js';
import { mistralDialect } from './mistral-dialect.js';
import { createMistralFimCompletions } from './mistral-fim-completions.js';
import { createMistralOcr } from './mistral-ocr.js';

/** Mistral's API (`base_url` e.g. https://api.mistral.ai/v1): chat, FIM completions, embeddings and OCR. */
export const createMistralProvider: ProviderFactory = (context): ProviderInstance => {
  const client = new UpstreamClient(context);
  return {
    id: context.id,
    type: context.options.type,
    capabilities: {
      chat: createOpenAiChat(client, mistralDialect),
      completions: createMistralFimCompletions(client, mistralDialect),
      embeddings: createOpenAiEmbeddings(client, mistralDialect),
      ocr: createMistralOcr(client),
    },
    status: () => client.status(),
    close: () => client.close(),
  };
};
