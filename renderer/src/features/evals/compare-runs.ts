import type { EvalOutputItemObject, ItemStatus } from './eval-types';

export type Verdict = ItemStatus | 'missing';

/** An item whose verdict differs between two runs. */
export interface VerdictChange {
  index: number;
  item: Record<string, unknown>;
  before: Verdict;
  after: Verdict;
  beforeOutput: string;
  afterOutput: string;
  /** pass → fail or error: the change made it worse. */
  regression: boolean;
}

/** The answer of an output item, or why it has none. */
export function outputText(item: EvalOutputItemObject | undefined): string {
  if (!item) return '';
  const answer = item.sample.output.map((message) => message.content).join('\n');
  if (answer) return answer;
  return item.sample.error ? `Error: ${item.sample.error.message}` : '';
}

/**
 * The items (matched by their row in the dataset) whose verdict changed from `before` to `after`:
 * regressions first, then the items that now pass, each group in dataset order.
 */
export function verdictChanges(
  before: readonly EvalOutputItemObject[],
  after: readonly EvalOutputItemObject[],
): VerdictChange[] {
  const beforeByRow = new Map(before.map((item) => [item.datasource_item_id, item]));
  const afterByRow = new Map(after.map((item) => [item.datasource_item_id, item]));
  const rows = [...new Set([...beforeByRow.keys(), ...afterByRow.keys()])];
  const changes: VerdictChange[] = [];
  for (const index of rows) {
    const a = beforeByRow.get(index);
    const b = afterByRow.get(index);
    const from: Verdict = a?.status ?? 'missing';
    const to: Verdict = b?.status ?? 'missing';
    if (from === to) continue;
    changes.push({
      index,
      item: (b ?? a)!.datasource_item,
      before: from,
      after: to,
      beforeOutput: outputText(a),
      afterOutput: outputText(b),
      regression: from === 'pass',
    });
  }
  return changes.sort((x, y) => Number(y.regression) - Number(x.regression) || x.index - y.index);
}
