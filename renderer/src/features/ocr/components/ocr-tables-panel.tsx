import { CopyButton } from '../../../components/copy-button';
import { EmptyState } from '../../../components/empty-state';
import type { OcrTable } from '../ocr-types';
import { tableCsv } from '../table-csv';

/** The page's tables as tables, each with its size and how it was found, to copy as Markdown or CSV. */
export function OcrTablesPanel({ tables }: { tables: OcrTable[] }) {
  if (tables.length === 0)
    return (
      <EmptyState icon="▦" title="No table found on this page">
        <span className="small">Ruled grids and columns of short cells that line up are read as tables.</span>
      </EmptyState>
    );
  return (
    <div className="stack ocr-tables">
      {tables.map((table, index) => {
        const [header = [], ...body] = table.rows;
        return (
          <section
            key={index}
            className="stack ocr-table-card"
            data-testid="ocr-table"
            aria-label={`Table ${index + 1}`}
          >
            <div className="row ocr-table-head">
              <span className="small grow">
                <strong>Table {index + 1}</strong> · {table.rows.length} rows × {header.length} columns ·{' '}
                {table.ruling === 'ruled' ? 'ruled' : 'unruled'}
                {table.continues_previous_page && ' · continues from the previous page'}
              </span>
              <CopyButton text={table.markdown} label="Copy Markdown" />
              <CopyButton text={tableCsv(table.rows)} label="Copy CSV" />
            </div>
            <div className="ocr-table-scroll">
              <table className="ocr-table">
                <thead>
                  <tr>
                    {header.map((text, col) => (
                      <th key={col}>{text}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {body.map((row, at) => (
                    <tr key={at}>
                      {row.map((text, col) => (
                        <td key={col}>{text}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
    </div>
  );
}
