import { useMutation } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { ListResponse, Usage } from '../../../lib/gateway-types';

export interface EmbeddingsRequest {
  model: string;
  input: string[];
}

export interface EmbeddingsResponse extends ListResponse<{ object: 'embedding'; embedding: number[]; index: number }> {
  model: string;
  usage: Usage;
}

export const createEmbeddings = (request: EmbeddingsRequest): Promise<EmbeddingsResponse> =>
  postJson('/v1/embeddings', request);

export const useCreateEmbeddings = () => useMutation({ mutationFn: createEmbeddings });
