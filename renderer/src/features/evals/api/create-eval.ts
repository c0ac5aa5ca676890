import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { EvalGrader, EvalObject, EvalRow } from '../eval-types';
import { itemSchemaOf } from '../parse-dataset';
import { deleteEval } from './delete-eval';
import { evalsQueryOptions } from './list-evals';
import { startRuns, type NewRuns } from './start-runs';

export interface NewEval {
  name: string;
  rows: EvalRow[];
  graders: EvalGrader[];
  runs: Omit<NewRuns, 'evalId' | 'rows'>;
}

/** Creates the eval (its item schema read from the rows), then one run per model on those rows; all or nothing. */
export async function createEval({ name, rows, graders, runs }: NewEval): Promise<EvalObject> {
  const evaluation = await postJson<EvalObject>('/v1/evals', {
    name,
    data_source_config: { type: 'custom', item_schema: itemSchemaOf(rows), include_sample_schema: false },
    testing_criteria: graders,
  });
  try {
    await startRuns({ ...runs, evalId: evaluation.id, rows });
  } catch (error) {
    // A run the gateway refuses (a 422 naming the field) leaves no half-made eval behind.
    await deleteEval(evaluation.id).catch(() => undefined);
    throw error;
  }
  return evaluation;
}

export function useCreateEval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEval,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: evalsQueryOptions().queryKey }),
  });
}
