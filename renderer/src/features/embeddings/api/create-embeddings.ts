import { useMutation } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import { useRefreshModelStates } from '../../../lib/models-query';
import type {
  EmbeddingList,
  EmbeddingsRequest as EmbeddingsBody,
} from '../../../../../gateway/src/api/embeddings/embedding-schemas';

/** The console always names the model and sends a list of inputs. */
export type EmbeddingsRequest = EmbeddingsBody & { model: string; input: string[] };

/** The console asks for floats (no encoding_format), so every embedding is a number array. */
export type EmbeddingsResponse = Omit<EmbeddingList, 'data'> & {
  data: (EmbeddingList['data'][number] & { embedding: number[] })[];
};

export const createEmbeddings = (request: EmbeddingsRequest): Promise<EmbeddingsResponse> =>
  postJson('/v1/embeddings', request);

export function useCreateEmbeddings() {
  const refreshModels = useRefreshModelStates();
  return useMutation({ mutationFn: createEmbeddings, onSettled: refreshModels });
}
