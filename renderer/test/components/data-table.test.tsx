import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type Column } from '../../src/components/data-table';
import { RowActions } from '../../src/components/row-actions';

afterEach(cleanup);

interface Fruit {
  id: string;
  count: number;
}

const FRUITS: Fruit[] = [
  { id: 'apple', count: 3 },
  { id: 'pear', count: 12 },
];

const columns = (remove = vi.fn()): Column<Fruit>[] => [
  { header: 'Fruit', className: 'mono', cell: (fruit) => fruit.id },
  { header: 'Count', numeric: true, cell: (fruit) => fruit.count },
  {
    header: 'Actions',
    headerHidden: true,
    cell: (fruit) => (
      <RowActions
        actions={[{ label: 'Delete', name: `Delete ${fruit.id}`, danger: true, onClick: () => remove(fruit) }]}
      />
    ),
  },
];

describe('DataTable', () => {
  it('names each row, aligns numbers and reads an actions header to screen readers only', () => {
    const remove = vi.fn();
    render(
      <DataTable testId="fruits" columns={columns(remove)} rows={FRUITS} rowKey={(f) => f.id} rowLabel={(f) => f.id} />,
    );
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual(['Fruit', 'Count', 'Actions']);
    expect(headers[1].className).toBe('num');
    expect(within(headers[2]).getByText('Actions').className).toBe('visually-hidden');
    const pear = screen.getByRole('row', { name: 'pear' });
    expect(
      within(pear)
        .getAllByRole('cell')
        .map((td) => [td.className, td.textContent]),
    ).toEqual([
      ['mono', 'pear'],
      ['num', '12'],
      ['', 'Delete'],
    ]);
    fireEvent.click(within(pear).getByRole('button', { name: 'Delete pear' }));
    expect(remove).toHaveBeenCalledWith(FRUITS[1]);
  });

  it('shows the empty state in place of the table, or an empty table when it has none', () => {
    const { rerender } = render(
      <DataTable columns={columns()} rows={[]} rowKey={(f) => f.id} empty={<p>Nothing yet</p>} />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    screen.getByText('Nothing yet');
    rerender(<DataTable columns={columns()} rows={[]} rowKey={(f) => f.id} />);
    expect(screen.getAllByRole('row')).toHaveLength(1);
  });

  it('opens a row on a click, Enter or Space when rows open something', () => {
    const open = vi.fn();
    render(
      <DataTable columns={columns()} rows={FRUITS} rowKey={(f) => f.id} rowLabel={(f) => f.id} onOpenRow={open} />,
    );
    const apple = screen.getByRole('row', { name: 'apple' });
    expect(apple.className).toBe('row-link');
    expect(apple.tabIndex).toBe(0);
    fireEvent.click(apple);
    fireEvent.keyDown(apple, { key: 'Enter' });
    fireEvent.keyDown(apple, { key: ' ' });
    fireEvent.keyDown(apple, { key: 'a' });
    expect(open.mock.calls).toEqual([[FRUITS[0]], [FRUITS[0]], [FRUITS[0]]]);
  });
});
