import type { BoxCoordinates, OcrResult } from '../../providers/contracts/ocr.js';

export type BoxGranularity = 'word' | 'line' | 'block';

export interface SelectedBox {
  text: string;
  bbox: BoxCoordinates;
  confidence: number;
  /** 0-based page index. */
  page: number;
}

/** Flattens the recognised layout to boxes at one granularity, in reading order, page by page. */
export function selectBoxes(result: OcrResult, granularity: BoxGranularity): SelectedBox[] {
  return result.pages.flatMap((page) => {
    const items =
      granularity === 'block'
        ? page.blocks
        : granularity === 'line'
          ? page.blocks.flatMap((b) => b.lines)
          : page.blocks.flatMap((b) => b.lines.flatMap((l) => l.words));
    return items.map((item) => ({ text: item.text, bbox: item.bbox, confidence: item.confidence, page: page.index }));
  });
}
