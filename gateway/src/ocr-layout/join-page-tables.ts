import type { PageRegion } from './page-regions.js';

const BODY_EDGE = new Set<PageRegion['type']>(['header', 'footer']);

/** Each column's horizontal extent, from its single-column cells. */
function columnExtents(table: PageRegion): { x1: number; x2: number }[] {
  const width = table.rows?.[0]?.length ?? 0;
  return Array.from({ length: width }, (_, col) => {
    const cells = (table.cells ?? []).filter((cell) => cell.col === col && cell.colSpan === 1);
    return cells.length
      ? { x1: Math.min(...cells.map((cell) => cell.bbox[0])), x2: Math.max(...cells.map((cell) => cell.bbox[2])) }
      : { x1: NaN, x2: NaN };
  });
}

/** Whether two tables have the same columns: as many, each overlapping its counterpart across the page. */
function sameColumns(a: PageRegion, b: PageRegion): boolean {
  const first = columnExtents(a);
  const second = columnExtents(b);
  return (
    first.length >= 2 &&
    first.length === second.length &&
    first.every((column, at) => column.x1 < second[at].x2 && second[at].x1 < column.x2)
  );
}

const rowKey = (row: string[]) => row.map((cell) => cell.replace(/\s+/g, ' ').trim().toLowerCase()).join('\u0000');

/**
 * Tables that run on across pages: when a page's last body region (before its footer) is a table and
 * the next page's first body region (after its header) is a table with the same columns, the second
 * continues the first (`continues` names the chain's first part). A continuing part that does not
 * repeat the header row gets it as its row 0 (with no cells: it is not on that page), so each part is
 * a whole table in itself and the joined table is the first part plus each continuing part's rows
 * after row 0. Regions are returned as given, continuing parts replaced.
 */
export function joinPageTables(pages: PageRegion[][]): PageRegion[][] {
  const joined: PageRegion[][] = [];
  for (const [position, regions] of pages.entries()) {
    const previous = joined[position - 1]?.filter((region) => !BODY_EDGE.has(region.type)).at(-1);
    const first = regions.find((region) => !BODY_EDGE.has(region.type));
    if (previous?.type !== 'table' || first?.type !== 'table' || !sameColumns(previous, first)) {
      joined.push(regions);
      continue;
    }
    const root = previous.continues ?? previous;
    const header = root.rows![0];
    const repeats = rowKey(first.rows![0]) === rowKey(header);
    const continuing: PageRegion = repeats
      ? { ...first, continues: root }
      : {
          ...first,
          continues: root,
          rows: [header, ...first.rows!],
          cells: first.cells?.map((cell) => ({ ...cell, row: cell.row + 1 })),
        };
    joined.push(regions.map((region) => (region === first ? continuing : region)));
  }
  return joined;
}
