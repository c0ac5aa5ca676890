import type { EvalOutputItemObject } from './eval-types';

/** One dataset row across the runs of a group: each run's output and verdict, side by side. */
export interface SideBySideRow {
  index: number;
  item: Record<string, unknown>;
  cells: (EvalOutputItemObject | undefined)[];
  /** How many of the runs did not pass it (failed, errored, or not graded yet don't count). */
  failing: number;
}

/** The rows of several runs side by side (one cell per run, in the order given), failing rows first. */
export function sideBySideRows(runs: readonly (readonly EvalOutputItemObject[])[]): SideBySideRow[] {
  const byRow = new Map<number, SideBySideRow>();
  runs.forEach((items, column) => {
    for (const item of items) {
      const row = byRow.get(item.datasource_item_id) ?? {
        index: item.datasource_item_id,
        item: item.datasource_item,
        cells: runs.map(() => undefined),
        failing: 0,
      };
      row.cells[column] = item;
      if (item.status !== 'pass') row.failing++;
      byRow.set(item.datasource_item_id, row);
    }
  });
  return [...byRow.values()].sort((a, b) => b.failing - a.failing || a.index - b.index);
}
