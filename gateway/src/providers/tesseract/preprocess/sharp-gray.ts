import sharp, { type Sharp } from 'sharp';
import type { GrayImage } from '../../../media/image/decode-image.js';

/** Runs a sharp operation on a grayscale image and returns grayscale (sharp would otherwise widen raw gray to sRGB). */
export async function sharpGray(image: GrayImage, operation: (pipeline: Sharp) => Sharp): Promise<GrayImage> {
  // sharp reads only memory of the thread's own: pixels shared between threads are copied.
  const input = image.data.buffer instanceof SharedArrayBuffer ? new Uint8Array(image.data) : image.data;
  const pipeline = operation(sharp(input, { raw: { width: image.width, height: image.height, channels: 1 } }));
  const { data, info } = await pipeline.toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`Expected a one-channel image from sharp, got ${info.channels}.`);
  return { width: info.width, height: info.height, data };
}
