import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { isRunActive, type CursorPage, type EvalRunObject } from '../eval-types';

const POLL_MS = 1_000;

/** The newest 100 runs of an eval, with their result counts as they grow. */
export const listRuns = (evalId: string): Promise<CursorPage<EvalRunObject>> =>
  getJson(`/v1/evals/${encodeURIComponent(evalId)}/runs?limit=100&order=desc`);

export const runsQueryOptions = (evalId: string) =>
  queryOptions({ queryKey: ['evals', evalId, 'runs'], queryFn: () => listRuns(evalId) });

/** Polls while a run is queued or running: its progress is `result_counts`. */
export const useRuns = (evalId: string) =>
  useQuery({
    ...runsQueryOptions(evalId),
    refetchInterval: (query) => (query.state.data?.data.some(isRunActive) ? POLL_MS : false),
  });
