import { identifyLanguage } from './identify-language.js';
import type { OcrBlock, PageLanguage } from './ocr-page.js';

/** Fewer letters than this and a text's language is not told apart from its page's. */
const BLOCK_LETTERS = 20;

/** The language of a piece of a page (a block, a region) where its text shows one other than the page's. */
export function languageApart(text: string, page: PageLanguage): string | undefined {
  if (page.detected === null || (text.match(/\p{L}/gu)?.length ?? 0) < BLOCK_LETTERS) return undefined;
  const { language } = identifyLanguage(text);
  return language !== undefined && language !== page.detected ? language : undefined;
}

/** The blocks, each marked with its language where its text shows one other than the page's (a mixed page). */
export function markBlockLanguages(blocks: OcrBlock[], page: PageLanguage): OcrBlock[] {
  return blocks.map((block) => {
    const language = languageApart(block.text, page);
    return language ? { ...block, language } : block;
  });
}
