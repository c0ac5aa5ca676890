import { describe, expect, it } from 'vitest';
import { outputText, verdictChanges } from '../../../src/features/evals/compare-runs';
import { sideBySideRows } from '../../../src/features/evals/side-by-side-rows';
import { outputItem } from './eval-fixtures';

describe('verdictChanges', () => {
  it('lists only the items whose verdict changed, regressions first, in dataset order', () => {
    const before = [
      outputItem(0, 'pass', 'Paris'),
      outputItem(1, 'fail', 'Lyon'),
      outputItem(2, 'pass', '4'),
      outputItem(3, 'fail', 'x'),
      outputItem(4, 'pass', 'same'),
    ];
    const after = [
      outputItem(0, 'pass', 'Paris!', 'b'),
      outputItem(1, 'pass', 'Paris', 'b'),
      outputItem(2, 'error', 'timed out', 'b'),
      outputItem(3, 'pass', 'y', 'b'),
      outputItem(4, 'fail', 'other', 'b'),
    ];
    const changes = verdictChanges(before, after);
    expect(changes.map((c) => [c.index, c.before, c.after, c.regression])).toEqual([
      [2, 'pass', 'error', true],
      [4, 'pass', 'fail', true],
      [1, 'fail', 'pass', false],
      [3, 'fail', 'pass', false],
    ]);
    expect(changes[0]).toMatchObject({
      beforeOutput: '4',
      afterOutput: 'Error: timed out',
      item: { input: 'question 2' },
    });
  });

  it('reports a row that only one run has as missing in the other', () => {
    expect(verdictChanges([outputItem(0, 'pass', 'a')], []).map((c) => [c.before, c.after])).toEqual([
      ['pass', 'missing'],
    ]);
  });
});

describe('sideBySideRows', () => {
  it('puts each run in its column and the rows failing on more runs first', () => {
    const rows = sideBySideRows([
      [outputItem(0, 'pass', 'a0'), outputItem(1, 'fail', 'a1'), outputItem(2, 'pass', 'a2')],
      [outputItem(0, 'pass', 'b0', 'b'), outputItem(1, 'error', 'b1', 'b'), outputItem(2, 'fail', 'b2', 'b')],
    ]);
    expect(rows.map((row) => [row.index, row.failing])).toEqual([
      [1, 2],
      [2, 1],
      [0, 0],
    ]);
    expect(rows[0].cells.map(outputText)).toEqual(['a1', 'Error: b1']);
  });

  it('leaves the cell of a run that has not graded the row yet empty', () => {
    const rows = sideBySideRows([[outputItem(0, 'pass', 'a0')], []]);
    expect(rows[0].cells).toEqual([expect.objectContaining({ datasource_item_id: 0 }), undefined]);
  });
});
