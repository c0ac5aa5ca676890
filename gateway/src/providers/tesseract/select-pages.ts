import { ProviderError } from '../_shared/provider-error.js';

/**
 * The 0-based pages to process: all pages, or the requested ones (deduplicated, in document order).
 * Rejects indices outside the document and selections over `maxPages`.
 */
export function selectPages(pageCount: number, requested: number[] | undefined, maxPages: number): number[] {
  let pages: number[];
  if (requested === undefined) {
    pages = Array.from({ length: pageCount }, (_, i) => i);
  } else {
    const outside = requested.filter((p) => !Number.isInteger(p) || p < 0 || p >= pageCount);
    if (outside.length > 0) {
      throw new ProviderError(
        'invalid_input',
        `Page ${outside[0]} does not exist: the document has ${pageCount} page${pageCount === 1 ? '' : 's'} (0-based indices 0 to ${pageCount - 1}).`,
        { code: 'page_out_of_range', param: 'pages' },
      );
    }
    pages = [...new Set(requested)].sort((a, b) => a - b);
  }
  if (pages.length > maxPages) {
    throw new ProviderError(
      'too_large',
      `${pages.length} pages selected, over the max_pages limit of ${maxPages}. Select fewer pages with \`pages\` or raise max_pages.`,
      { code: 'too_many_pages', param: 'pages' },
    );
  }
  return pages;
}
