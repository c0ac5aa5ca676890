import sharp from 'sharp';
import { workTask } from '../../media/work-pool/work-task.js';
import type { BoxCoordinates } from '../../ocr-layout/ocr-page.js';
import { findFigures } from '../../ocr-layout/find-figures.js';

// The task pageFigures runs on the work pool's threads (see WorkPool).

/** Smallest figure side by default: 8 % of the page's shorter side. */
const DEFAULT_FIGURE_SIDE = 0.08;

export interface FigureJob {
  png: Uint8Array;
  words: BoxCoordinates[];
  /** Smallest figure side in pixels; null: the default. */
  minSize: number | null;
}

/** The picture areas of a rendered page (see findFigures). */
export const figuresOnPage = workTask(async ({ png, words, minSize }: FigureJob): Promise<BoxCoordinates[]> => {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const side = minSize ?? Math.round(Math.min(info.width, info.height) * DEFAULT_FIGURE_SIDE);
  return findFigures({ width: info.width, height: info.height, data }, words, Math.max(8, side));
});
