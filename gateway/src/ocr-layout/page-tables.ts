import type { SpecOcrTable } from '../wire/ocr-table-schema.js';
import { boxCorners } from './box-geometry.js';
import { documentRegions } from './classify-regions.js';
import type { OcrPage } from './ocr-page.js';
import { markdownTable, wireTableCells } from './table-markup.js';

/** Each page's tables, found as in Mistral's form (words inside pictures and running headers left out), for SPEC's form. */
export function pageTables(pages: OcrPage[]): SpecOcrTable[][] {
  return documentRegions(
    pages,
    pages.map((page) => ({ figures: [], pictures: page.pictures })),
  ).map((regions) =>
    regions
      .filter((region) => region.type === 'table')
      .map((table) => ({
        ...boxCorners(table.bbox),
        ruling: table.ruling ?? 'unruled',
        rows: table.rows ?? [],
        markdown: markdownTable(table.rows ?? []),
        cells: wireTableCells(table.cells ?? []),
        continues_previous_page: table.continues !== undefined,
      })),
  );
}
