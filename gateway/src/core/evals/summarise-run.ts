import type { EvalItemRecord, EvalRunSummary } from '../../store/evals-repository.js';
import type { EvalGrader } from '../../wire/eval-schemas.js';

/** A run's per-criterion verdicts and per-model usage, added up over its stored items. */
export function summariseRun(
  graders: EvalGrader[],
  items: Pick<EvalItemRecord, 'results' | 'usage'>[],
): EvalRunSummary {
  const criteria = new Map(graders.map((grader) => [grader.name, { passed: 0, failed: 0 }]));
  const models = new Map<string, EvalRunSummary['per_model_usage'][number]>();
  for (const item of items) {
    for (const result of item.results) {
      const counts = criteria.get(result.name);
      if (counts) counts[result.passed ? 'passed' : 'failed']++;
    }
    for (const calls of item.usage) {
      const usage = models.get(calls.model) ?? {
        model_name: calls.model,
        invocation_count: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
        cached_tokens: 0,
        cost: 0,
        total_latency_ms: 0,
      };
      usage.invocation_count += calls.calls;
      usage.prompt_tokens += calls.prompt_tokens;
      usage.completion_tokens += calls.completion_tokens;
      usage.total_tokens += calls.prompt_tokens + calls.completion_tokens;
      usage.cached_tokens += calls.cached_tokens;
      usage.cost += calls.cost ?? 0;
      usage.total_latency_ms += calls.latency_ms ?? 0;
      models.set(calls.model, usage);
    }
  }
  return {
    per_model_usage: [...models.values()],
    per_testing_criteria_results: [...criteria].map(([name, counts]) => ({ testing_criteria: name, ...counts })),
  };
}
