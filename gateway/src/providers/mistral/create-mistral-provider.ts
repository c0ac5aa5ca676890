import type { ProviderFactory, ProviderInstance } from '../contracts/provider-instance.js';
import { UpstreamClient } from '../_shared/http/upstream-client.js';
import { createOpenAiChat } from '../_shared/openai-wire/openai-chat.js';
import { createOpenAiEmbeddings } from '../_shared/openai-wire/openai-embeddings.js';
import { createUpstreamClassification, createUpstreamModeration } from '../_shared/openai-wire/upstream-classifiers.js';
import { mistralDialect } from './mistral-dialect.js';
import { createMistralFimCompletions } from './mistral-fim-completions.js';
import { createMistralOcr } from './mistral-ocr.js';

/** Mistral's API (`base_url` e.g. https://api.mistral.ai/v1): chat, FIM completions, embeddings, OCR, moderation and classifiers. */
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
      moderation: createUpstreamModeration(client, true),
      classification: createUpstreamClassification(client),
    },
    status: () => client.status(),
    close: () => client.close(),
  };
};
