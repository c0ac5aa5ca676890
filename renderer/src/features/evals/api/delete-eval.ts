import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { evalsQueryOptions } from './list-evals';

/** Deletes the eval with its runs (running ones are cancelled) and their output items. */
export const deleteEval = (id: string): Promise<unknown> =>
  getJson(`/v1/evals/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteEval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEval,
    onSettled: () => queryClient.invalidateQueries({ queryKey: evalsQueryOptions().queryKey }),
  });
}
