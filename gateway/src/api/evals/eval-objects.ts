import type { EvalItemRecord, EvalRecord, EvalRunView } from '../../core/evals/evals-service.js';
import type { EvalObject, EvalOutputItemObject, EvalRunObject } from '../../wire/eval-schemas.js';

export function toEvalObject(record: EvalRecord): EvalObject {
  return {
    object: 'eval',
    id: record.id,
    name: record.name,
    created_at: record.created_at,
    metadata: record.metadata,
    data_source_config: record.data_source_config,
    testing_criteria: record.testing_criteria,
  };
}

export function toEvalRunObject(run: EvalRunView): EvalRunObject {
  return {
    object: 'eval.run',
    id: run.id,
    eval_id: run.eval_id,
    name: run.name,
    model: run.model,
    status: run.status,
    created_at: run.created_at,
    metadata: run.metadata,
    data_source: run.data_source,
    error: run.error,
    // The console's Evals page will link here; until then there is no report page.
    report_url: '',
    result_counts: { total: run.total, passed: run.passed, failed: run.failed, errored: run.errored },
    per_model_usage: run.summary.per_model_usage,
    per_testing_criteria_results: run.summary.per_testing_criteria_results,
  };
}

export function toOutputItemObject(evalId: string, item: EvalItemRecord): EvalOutputItemObject {
  return {
    object: 'eval.run.output_item',
    id: item.id,
    run_id: item.run_id,
    eval_id: evalId,
    created_at: item.created_at,
    status: item.status,
    datasource_item_id: item.item_index,
    datasource_item: item.datasource_item,
    results: item.results,
    sample: item.sample,
  };
}

/** OpenAI's cursor page: the items, the first and last ids, and whether more follow (`after` = last_id). */
export function cursorPage<T extends { id: string }>(data: T[], hasMore: boolean) {
  return {
    object: 'list' as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}
