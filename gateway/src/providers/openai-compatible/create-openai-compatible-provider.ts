import type { ProviderFactory, ProviderInstance } from '../contracts/provider-instance.js';
import { UpstreamClient } from '../_shared/http/upstream-client.js';
import { createOpenAiChat } from '../_shared/openai-wire/openai-chat.js';
import { createOpenAiCompletions } from './openai-completions.js';
import { openAiDialect } from '../_shared/openai-wire/openai-dialect.js';
import { createOpenAiEmbeddings } from '../_shared/openai-wire/openai-embeddings.js';
import { createOpenAiImageGeneration } from './openai-image-generation.js';
import { createOpenAiResponses } from './openai-responses.js';
import { createOpenAiTranscription } from './openai-transcription.js';
import { createUpstreamModeration } from '../_shared/openai-wire/upstream-classifiers.js';

/**
 * Any server that speaks the OpenAI API: OpenAI itself, Ollama, vLLM, llama.cpp's server,
 * LM Studio, LocalAI. `base_url` includes `/v1`. Which capabilities a model really has is the
 * route's business (config `capabilities`); this provider offers them all. With `responses_api: true`
 * the upstream's own /responses endpoint serves the Responses API instead of a translation to chat.
 */
export const createOpenAiCompatibleProvider: ProviderFactory = (context): ProviderInstance => {
  const client = new UpstreamClient(context);
  return {
    id: context.id,
    type: context.options.type,
    capabilities: {
      chat: createOpenAiChat(client, openAiDialect),
      completions: createOpenAiCompletions(client, openAiDialect),
      embeddings: createOpenAiEmbeddings(client, openAiDialect),
      image_generation: createOpenAiImageGeneration(client, context),
      transcription: createOpenAiTranscription(client),
      moderation: createUpstreamModeration(client, false),
      ...(context.options.responses_api === true ? { responses: createOpenAiResponses(client) } : {}),
    },
    status: () => client.status(),
    close: () => client.close(),
  };
};
