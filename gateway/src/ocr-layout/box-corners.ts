import type { BoxCoordinates } from './ocr-page.js';

/** A box as Mistral's answers give one: whole pixels, top-left and bottom-right corners. */
export const boxCorners = (bbox: BoxCoordinates) => ({
  top_left_x: Math.round(bbox[0]),
  top_left_y: Math.round(bbox[1]),
  bottom_right_x: Math.round(bbox[2]),
  bottom_right_y: Math.round(bbox[3]),
});
