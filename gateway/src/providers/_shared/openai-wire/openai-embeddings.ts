import type { EmbeddingProvider, EmbeddingRequest, EmbeddingResult } from '../../contracts/embeddings.js';
import type { UpstreamClient } from '../http/upstream-client.js';
import { expectArray, expectRecord, isRecord, malformedResponse, optionalNumber } from '../http/wire-guards.js';
import { approximateTokens } from '../approximate-tokens.js';
import type { OpenAiDialect } from './openai-dialect.js';
import { buildEmbeddingBody } from './request-builders.js';

/** Embeddings over `POST <base>/embeddings`; answers in float lists and base64 (float32 LE) both read. */
export function createOpenAiEmbeddings(client: UpstreamClient, dialect: OpenAiDialect): EmbeddingProvider {
  return {
    async embed(request: EmbeddingRequest): Promise<EmbeddingResult> {
      const answer = await client.postJson({
        path: '/embeddings',
        body: { json: buildEmbeddingBody(request, dialect) },
        signal: request.signal,
      });
      const record = expectRecord(answer, client.name, 'the answer');
      const items = expectArray(record.data, client.name, 'data').map((value, position) => {
        const item = expectRecord(value, client.name, 'an embedding');
        return { index: optionalNumber(item.index) ?? position, vector: readVector(item.embedding, client.name) };
      });
      if (items.length !== request.input.length) {
        throw malformedResponse(client.name, `${items.length} embeddings for ${request.input.length} inputs`);
      }
      items.sort((a, b) => a.index - b.index);
      const reported = isRecord(record.usage) ? optionalNumber(record.usage.prompt_tokens) : undefined;
      const promptTokens = reported ?? approximateTokens(...request.input);
      return { vectors: items.map((item) => item.vector), prompt_tokens: promptTokens };
    },
  };
}

function readVector(embedding: unknown, providerName: string): number[] {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length % 4 !== 0) throw malformedResponse(providerName, 'a base64 embedding is not a float32 array');
    // Copy into an aligned buffer: the decoded bytes may start at any offset.
    const floats = new Float32Array(new Uint8Array(bytes).buffer);
    return Array.from(floats);
  }
  const list = expectArray(embedding, providerName, 'an embedding');
  if (!list.every((value) => typeof value === 'number'))
    throw malformedResponse(providerName, 'an embedding holds non-numbers');
  return list as number[];
}
