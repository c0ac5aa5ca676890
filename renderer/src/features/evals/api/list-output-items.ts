import { queryOptions, useQueries } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { isRunActive, type CursorPage, type EvalOutputItemObject, type EvalRunObject } from '../eval-types';

/** Every output item of a run, page after page, in dataset order. */
export async function listOutputItems(evalId: string, runId: string): Promise<EvalOutputItemObject[]> {
  const items: EvalOutputItemObject[] = [];
  let after: string | null = null;
  do {
    const query = `limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const page: CursorPage<EvalOutputItemObject> = await getJson(
      `/v1/evals/${encodeURIComponent(evalId)}/runs/${encodeURIComponent(runId)}/output_items?${query}`,
    );
    items.push(...page.data);
    after = page.has_more ? page.last_id : null;
  } while (after);
  return items;
}

/** Keyed by how many items the run has graded, so new results are read as they come and an ended run once. */
export const outputItemsQueryOptions = (run: EvalRunObject) => {
  const { passed, failed, errored } = run.result_counts;
  return queryOptions({
    queryKey: ['evals', run.eval_id, 'runs', run.id, 'items', passed + failed + errored, isRunActive(run)],
    queryFn: () => listOutputItems(run.eval_id, run.id),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
};

/** The output items of each run, in the order of the runs. */
export const useOutputItems = (runs: readonly EvalRunObject[]) =>
  useQueries({ queries: runs.map((run) => outputItemsQueryOptions(run)) });
