import type { GrayImage } from './decode-image.js';

/**
 * The image with its pixels in shared memory, so the jobs of a page on the work pool's threads read
 * them without a copy each (a 200-DPI page is 4 MB, a page at the pixel limit 40 MB). Copied once,
 * unless they are shared already.
 */
export function sharedGray(image: GrayImage): GrayImage {
  if (image.data.buffer instanceof SharedArrayBuffer) return image;
  const data = new Uint8Array(new SharedArrayBuffer(image.data.byteLength));
  data.set(image.data);
  return { width: image.width, height: image.height, data };
}
