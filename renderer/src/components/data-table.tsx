import type { KeyboardEvent, ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  /** The header is read by screen readers only (an actions column). */
  headerHidden?: boolean;
  /** The header is an abbreviation: what it stands for (shown on hover, read by screen readers). */
  headerTitle?: string;
  /** Right-aligned tabular figures, in the header and the cells. */
  numeric?: boolean;
  /** Classes of each cell of the column. */
  className?: string;
  /** The rows can be ordered by this column: the header is a button, and says whether they are. */
  sort?: { active: boolean; onSort(): void };
  cell(row: Row): ReactNode;
}

interface Props<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row): string;
  /** The row's accessible name, by which people and tests find it. */
  rowLabel?(row: Row): string;
  rowClassName?(row: Row): string | undefined;
  /** Each row opens something (a drawer): on a click, Enter or Space. */
  onOpenRow?(row: Row): void;
  /** Shown in place of the table when there are no rows; without it the table shows with no rows. */
  empty?: ReactNode;
  testId?: string;
}

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/** A console list as a table: one header row, one row per item, the `table` styles of components.css. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowLabel,
  rowClassName,
  onOpenRow,
  empty,
  testId,
}: Props<Row>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const openOnKey = (event: KeyboardEvent, row: Row) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onOpenRow?.(row);
  };
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th
              key={column.header}
              className={classes(column.numeric && 'num')}
              aria-sort={column.sort ? (column.sort.active ? 'descending' : 'none') : undefined}
            >
              {column.headerHidden ? (
                <span className="visually-hidden">{column.header}</span>
              ) : column.sort ? (
                <button type="button" className="th-sort" onClick={column.sort.onSort}>
                  {column.header}
                  <span aria-hidden="true">{column.sort.active ? ' ▼' : ' ↕'}</span>
                </button>
              ) : column.headerTitle ? (
                <abbr title={column.headerTitle}>{column.header}</abbr>
              ) : (
                column.header
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            aria-label={rowLabel?.(row)}
            className={classes(onOpenRow && 'row-link', rowClassName?.(row))}
            {...(onOpenRow && {
              tabIndex: 0,
              onClick: () => onOpenRow(row),
              onKeyDown: (event: KeyboardEvent) => openOnKey(event, row),
            })}
          >
            {columns.map((column) => (
              <td key={column.header} className={classes(column.numeric && 'num', column.className)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
