import { ProviderError } from '../_shared/provider-error.js';
import type { EmbeddingProvider, EmbeddingRequest, EmbeddingResult } from '../contracts/embeddings.js';
import type { ModelPool } from './model-pool.js';
import { abortedError } from './request-queue.js';
import { toProviderError } from './to-provider-error.js';

async function embed(pool: ModelPool, request: EmbeddingRequest): Promise<EmbeddingResult> {
  const { signal } = request;
  try {
    if (request.input.some((text) => text.length === 0)) {
      throw new ProviderError('invalid_request', 'Embedding inputs must not be empty strings.', { param: 'input' });
    }
    return await pool
      .model(request.model)
      .use(signal, async ({ model, contextSize, embeddingContext }, embeddingSignal) => {
        const context = await embeddingContext();
        const vectors: number[][] = [];
        let promptTokens = 0;
        for (const [index, text] of request.input.entries()) {
          if (embeddingSignal.aborted) throw abortedError();
          const tokens = model.tokenize(text).length;
          if (tokens > contextSize) {
            throw new ProviderError(
              'invalid_request',
              `Input ${index} is ${tokens} tokens long; this local model's context holds ${contextSize}.`,
              {
                param: 'input',
                code: 'context_length_exceeded',
              },
            );
          }
          promptTokens += tokens;
          vectors.push([...(await context.getEmbeddingFor(text)).vector]);
        }
        const size = vectors[0]?.length;
        if (request.dimensions !== undefined && size !== undefined && request.dimensions !== size) {
          throw new ProviderError(
            'invalid_request',
            `This local model makes ${size}-dimensional embeddings; dimensions=${request.dimensions} is not available.`,
            {
              param: 'dimensions',
            },
          );
        }
        return { vectors, prompt_tokens: promptTokens };
      });
  } catch (error) {
    throw toProviderError(error, signal);
  }
}

export function createLlamaCppEmbeddings(pool: ModelPool): EmbeddingProvider {
  return { embed: (request) => embed(pool, request) };
}
