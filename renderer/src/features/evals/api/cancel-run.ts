import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { EvalRunObject } from '../eval-types';
import { runsQueryOptions } from './list-runs';

export const cancelRun = (run: Pick<EvalRunObject, 'eval_id' | 'id'>): Promise<EvalRunObject> =>
  getJson(`/v1/evals/${encodeURIComponent(run.eval_id)}/runs/${encodeURIComponent(run.id)}`, { method: 'POST' });

export function useCancelRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelRun,
    onSettled: (_run, _error, { eval_id }) =>
      queryClient.invalidateQueries({ queryKey: runsQueryOptions(eval_id).queryKey }),
  });
}
