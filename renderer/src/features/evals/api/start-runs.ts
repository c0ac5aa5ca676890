import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import { RUN_GROUP_KEY, type EvalRow, type EvalRunObject } from '../eval-types';
import { runsQueryOptions } from './list-runs';

export interface NewRuns {
  evalId: string;
  rows: EvalRow[];
  models: string[];
  /** The prompt's messages; `{{item.x}}` names a field of each row. */
  template: { role: 'system' | 'user'; content: string }[];
  sampling: { temperature?: number; max_completion_tokens?: number };
  /** Shown in the run names, e.g. "v2: shorter prompt". */
  label: string;
}

/**
 * One run per model (the Evals API samples one model per run), all on the same rows, tied together
 * by a group id in their metadata so the page shows them side by side.
 */
export async function startRuns({
  evalId,
  rows,
  models,
  template,
  sampling,
  label,
}: NewRuns): Promise<EvalRunObject[]> {
  const group = `g${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const runs: EvalRunObject[] = [];
  for (const model of models)
    runs.push(
      await postJson<EvalRunObject>(`/v1/evals/${encodeURIComponent(evalId)}/runs`, {
        name: label.trim() ? `${label.trim()} · ${model}` : model,
        metadata: { [RUN_GROUP_KEY]: group, ...(label.trim() ? { label: label.trim().slice(0, 500) } : {}) },
        data_source: {
          type: 'completions',
          model,
          input_messages: { type: 'template', template },
          sampling_params: sampling,
          source: { type: 'file_content', content: rows },
        },
      }),
    );
  return runs;
}

export function useStartRuns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startRuns,
    onSettled: (_runs, _error, { evalId }) =>
      queryClient.invalidateQueries({ queryKey: runsQueryOptions(evalId).queryKey }),
  });
}
