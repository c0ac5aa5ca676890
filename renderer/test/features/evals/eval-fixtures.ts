import type { EvalOutputItemObject, EvalRunObject, ItemStatus } from '../../../src/features/evals/eval-types';

/** A completed run of `model` with these counts and usage. */
export function evalRun(change: Partial<EvalRunObject> & { model: string }): EvalRunObject {
  return {
    object: 'eval.run',
    id: `evalrun_${change.model}`,
    eval_id: 'eval_1',
    name: change.model,
    status: 'completed',
    created_at: 100,
    metadata: null,
    data_source: {
      type: 'completions',
      model: change.model,
      input_messages: { type: 'template', template: [{ role: 'user', content: '{{item.input}}' }] },
      source: { type: 'file_content', content: [{ item: { input: 'x' } }] },
    },
    error: null,
    report_url: '',
    result_counts: { total: 0, passed: 0, failed: 0, errored: 0 },
    per_model_usage: [],
    per_testing_criteria_results: [],
    ...change,
  };
}

/** The output item of dataset row `index` with this verdict and answer. */
export function outputItem(
  index: number,
  status: ItemStatus,
  answer: string,
  runId = 'evalrun_a',
): EvalOutputItemObject {
  return {
    object: 'eval.run.output_item',
    id: `outputitem_${runId}_${index}`,
    run_id: runId,
    eval_id: 'eval_1',
    created_at: 100,
    status,
    datasource_item_id: index,
    datasource_item: { input: `question ${index}` },
    results: [],
    sample: {
      model: 'm',
      input: [{ role: 'user', content: `question ${index}` }],
      output: status === 'error' ? [] : [{ role: 'assistant', content: answer }],
      finish_reason: 'stop',
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cached_tokens: 0 },
      error: status === 'error' ? { code: 'upstream_error', message: answer } : null,
      temperature: null,
      top_p: null,
      seed: null,
      max_completion_tokens: null,
    },
  };
}
