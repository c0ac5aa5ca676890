import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { Batch } from '../batch-types';
import { batchesQueryOptions } from './list-batches';

export const cancelBatch = (id: string): Promise<Batch> =>
  getJson(`/v1/batch/${encodeURIComponent(id)}/cancel`, { method: 'POST' });

export function useCancelBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelBatch,
    onSettled: () => queryClient.invalidateQueries({ queryKey: batchesQueryOptions().queryKey }),
  });
}
