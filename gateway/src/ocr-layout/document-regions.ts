import type { BoxCoordinates, OcrPage } from './ocr-page.js';
import { classifyRegions, findPageBands } from './classify-regions.js';
import { joinPageTables } from './join-page-tables.js';
import type { PageRegion } from './page-regions.js';

/**
 * Every page cut into typed regions in reading order (see classifyRegions), running headers and
 * footers found across the pages and tables that run on from one page to the next joined (see
 * joinPageTables). `figures` per page are the pictures returned as figures; `pictures` all picture
 * areas. A page with neither blocks nor figures (text without layout) has no regions.
 */
export function documentRegions(
  pages: OcrPage[],
  drawings: { figures: BoxCoordinates[]; pictures?: BoxCoordinates[] }[],
): PageRegion[][] {
  const bands = findPageBands(pages);
  return joinPageTables(
    pages.map((page, position) => {
      const { figures, pictures } = drawings[position];
      const withLayout = page.blocks.length > 0 || figures.length > 0;
      return withLayout ? classifyRegions(page, bands[position], figures, pictures ?? figures) : [];
    }),
  );
}
