import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { Batch } from '../batch-types';
import { batchesQueryOptions } from './list-batches';
import { uploadBatchFile } from './upload-batch-file';

export interface NewBatch {
  input: Blob;
  filename: string;
  endpoint: string;
  metadata?: Record<string, string>;
}

/** Uploads the input file, then creates the batch from it. */
export async function createBatch({ input, filename, endpoint, metadata }: NewBatch): Promise<Batch> {
  const file = await uploadBatchFile(input, filename);
  return postJson('/v1/batch', {
    input_file_id: file.id,
    endpoint,
    completion_window: '24h',
    ...(metadata ? { metadata } : {}),
  });
}

export function useCreateBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBatch,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchesQueryOptions().queryKey }),
  });
}
