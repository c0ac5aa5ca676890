import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { newId } from '../../core/ids/ids.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { EmbeddingBody, EmbeddingList } from './embedding-schemas.js';
import type { EmbeddingService } from '../../core/embeddings/embedding-service.js';

/** Float32 little-endian bytes in base64, as the `openai` SDK asks for by default. */
function toBase64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

/** POST /v1/embeddings: one vector per input string. */
export const embeddingRoutes: FastifyPluginAsyncTypebox<{ embeddings: EmbeddingService }> = async (
  app,
  { embeddings },
) => {
  app.post(
    '/v1/embeddings',
    {
      config: { billable: true },
      schema: {
        tags: ['embeddings'],
        summary: 'Create embeddings',
        body: EmbeddingBody,
        response: { 200: EmbeddingList, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const raw = body.input ?? body.inputs;
      if (raw === undefined)
        throw new GatewayError(422, 'invalid_value', "Invalid request: 'input' is required.", { param: 'input' });
      const input = Array.isArray(raw) ? raw : [raw];
      const { result: value, route: served } = await embeddings.embed(
        body.model,
        input,
        body.dimensions ?? undefined,
        request.billing,
        clientAbortSignal(reply),
      );
      const base64 = body.encoding_format === 'base64';
      return {
        id: newId('embd-'),
        object: 'list' as const,
        data: value.vectors.map((vector, index) => ({
          object: 'embedding' as const,
          embedding: base64 ? toBase64(vector) : vector,
          index,
        })),
        model: served.id,
        usage: { prompt_tokens: value.prompt_tokens, total_tokens: value.prompt_tokens },
      };
    },
  );
};
