import type { EvalRunObject } from './eval-types';

/** What one run (one model) scored and cost: the figures the results charts draw. */
export interface ModelResult {
  runId: string;
  model: string;
  status: EvalRunObject['status'];
  graded: number;
  total: number;
  /** Passed over graded items (errored ones count as not passed); null before any is graded. */
  passRate: number | null;
  criteria: { name: string; passRate: number | null }[];
  /** The sampled model's own requests: what they were billed, their mean latency and tokens. */
  cost: number;
  meanLatencyMs: number | null;
  promptTokens: number;
  completionTokens: number;
  /** What the judges and the embedding model cost on top, for this run. */
  graderCost: number;
}

const rate = (passed: number, of: number): number | null => (of > 0 ? passed / of : null);

export function modelResult(run: EvalRunObject): ModelResult {
  const { total, passed, failed, errored } = run.result_counts;
  const model = run.model ?? (run.data_source.type === 'completions' ? run.data_source.model : 'given samples');
  const own = run.per_model_usage.find((usage) => usage.model_name === model);
  const others = run.per_model_usage.filter((usage) => usage !== own);
  return {
    runId: run.id,
    model,
    status: run.status,
    graded: passed + failed + errored,
    total,
    passRate: rate(passed, passed + failed + errored),
    criteria: run.per_testing_criteria_results.map((c) => ({
      name: c.testing_criteria,
      passRate: rate(c.passed, c.passed + c.failed),
    })),
    cost: own?.cost ?? 0,
    meanLatencyMs: own && own.invocation_count > 0 ? own.total_latency_ms / own.invocation_count : null,
    promptTokens: own?.prompt_tokens ?? 0,
    completionTokens: own?.completion_tokens ?? 0,
    graderCost: others.reduce((sum, usage) => sum + usage.cost, 0),
  };
}

/** One bar of a chart: its length as a fraction of the longest, and its value in words. */
export interface Bar {
  label: string;
  value: number;
  fraction: number;
  text: string;
}

/** Bars on one scale: the largest value fills the track (a pass rate's scale is fixed at 100 %). */
export function barsOf(
  values: readonly { label: string; value: number | null }[],
  format: (value: number) => string,
  max?: number,
): Bar[] {
  const known = values.filter((v): v is { label: string; value: number } => v.value !== null);
  const top = max ?? Math.max(0, ...known.map((v) => v.value));
  return values.map(({ label, value }) => ({
    label,
    value: value ?? 0,
    fraction: value !== null && top > 0 ? Math.min(1, value / top) : 0,
    text: value === null ? '–' : format(value),
  }));
}

export const percent = (fraction: number): string => `${Math.round(fraction * 1000) / 10} %`;

/** Groups an eval's runs by the "run on N models" that started them together; newest group first. */
export function runGroups(runs: readonly EvalRunObject[], groupKey: string): EvalRunObject[][] {
  const groups = new Map<string, EvalRunObject[]>();
  for (const run of [...runs].sort((a, b) => b.created_at - a.created_at || b.id.localeCompare(a.id))) {
    const key = run.metadata?.[groupKey] ?? run.id;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((group) => group.sort((a, b) => a.id.localeCompare(b.id)));
}
