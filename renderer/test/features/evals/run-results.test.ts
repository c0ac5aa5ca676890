import { describe, expect, it } from 'vitest';
import { RUN_GROUP_KEY } from '../../../src/features/evals/eval-types';
import { barsOf, modelResult, percent, runGroups } from '../../../src/features/evals/run-results';
import { evalRun } from './eval-fixtures';

const usage = (model_name: string, invocation_count: number, cost: number, total_latency_ms: number) => ({
  model_name,
  invocation_count,
  prompt_tokens: 10 * invocation_count,
  completion_tokens: 4 * invocation_count,
  total_tokens: 14 * invocation_count,
  cached_tokens: 0,
  cost,
  total_latency_ms,
});

describe('modelResult', () => {
  it("reads the pass rates, and the sampled model's cost, mean latency and tokens apart from the judges'", () => {
    const result = modelResult(
      evalRun({
        model: 'small',
        result_counts: { total: 5, passed: 2, failed: 1, errored: 1 },
        per_testing_criteria_results: [
          { testing_criteria: 'exact', passed: 2, failed: 1 },
          { testing_criteria: 'judge', passed: 0, failed: 0 },
        ],
        per_model_usage: [usage('small', 4, 0.004, 1000), usage('judge-model', 3, 0.5, 90)],
      }),
    );
    expect(result).toEqual({
      runId: 'evalrun_small',
      model: 'small',
      status: 'completed',
      graded: 4,
      total: 5,
      passRate: 0.5,
      criteria: [
        { name: 'exact', passRate: 2 / 3 },
        { name: 'judge', passRate: null },
      ],
      cost: 0.004,
      meanLatencyMs: 250,
      promptTokens: 40,
      completionTokens: 16,
      graderCost: 0.5,
    });
  });

  it('has no pass rate and no latency before anything is graded', () => {
    const result = modelResult(evalRun({ model: 'big', status: 'queued' }));
    expect(result.passRate).toBeNull();
    expect(result.meanLatencyMs).toBeNull();
    expect(result.cost).toBe(0);
  });
});

describe('barsOf', () => {
  it('scales the bars to the largest value, or to a fixed maximum', () => {
    const format = (v: number) => `${v} ms`;
    expect(
      barsOf(
        [
          { label: 'a', value: 50 },
          { label: 'b', value: 200 },
          { label: 'c', value: null },
        ],
        format,
      ),
    ).toEqual([
      { label: 'a', value: 50, fraction: 0.25, text: '50 ms' },
      { label: 'b', value: 200, fraction: 1, text: '200 ms' },
      { label: 'c', value: 0, fraction: 0, text: '–' },
    ]);
    expect(barsOf([{ label: 'a', value: 0.5 }], percent, 1)).toEqual([
      { label: 'a', value: 0.5, fraction: 0.5, text: '50 %' },
    ]);
    expect(barsOf([{ label: 'a', value: 0 }], format)[0].fraction).toBe(0);
  });
});

describe('runGroups', () => {
  it('puts the runs started together in one group, newest group first', () => {
    const runs = [
      evalRun({ model: 'a', id: 'evalrun_1', created_at: 1, metadata: { [RUN_GROUP_KEY]: 'g1' } }),
      evalRun({ model: 'b', id: 'evalrun_2', created_at: 1, metadata: { [RUN_GROUP_KEY]: 'g1' } }),
      evalRun({ model: 'a', id: 'evalrun_3', created_at: 5, metadata: null }),
    ];
    expect(runGroups(runs, RUN_GROUP_KEY).map((group) => group.map((run) => run.id))).toEqual([
      ['evalrun_3'],
      ['evalrun_1', 'evalrun_2'],
    ]);
  });
});
