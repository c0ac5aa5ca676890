import { toDisplayRect } from '../box-geometry';
import type { BBox, OcrTable } from '../ocr-types';

interface Props {
  tables: OcrTable[];
  scale: number;
  width: number;
  height: number;
}

/** Each table's outline and cell grid over the page image, in displayed pixels; clicks pass through to the word boxes. */
export function TableOverlay({ tables, scale, width, height }: Props) {
  return (
    <svg
      className="ocr-overlay ocr-table-overlay"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
    >
      {tables.map((table, tableIndex) => {
        const outline = toDisplayRect(
          [table.top_left_x, table.top_left_y, table.bottom_right_x, table.bottom_right_y],
          scale,
        );
        return (
          <g key={tableIndex} data-testid="ocr-table-grid" data-table={tableIndex}>
            <rect
              className="ocr-table-outline"
              x={outline.x}
              y={outline.y}
              width={outline.width}
              height={outline.height}
            />
            {table.cells.map((cell) => {
              const box: BBox = [cell.top_left_x, cell.top_left_y, cell.bottom_right_x, cell.bottom_right_y];
              const rect = toDisplayRect(box, scale);
              return (
                <rect
                  key={`${cell.row}:${cell.col}`}
                  className={`ocr-table-cell${cell.row === 0 ? ' header' : ''}`}
                  data-testid="ocr-table-cell"
                  data-row={cell.row}
                  data-col={cell.col}
                  x={rect.x}
                  y={rect.y}
                  width={Math.max(rect.width, 1)}
                  height={Math.max(rect.height, 1)}
                />
              );
            })}
          </g>
        );
      })}
    </svg>
  );
}
