import { MediaError } from '../media-error.js';

export interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
}

function corrupt(detail: string): MediaError {
  return new MediaError('invalid_document', `The BMP image is corrupt or unsupported: ${detail}.`, {
    code: 'corrupt_image',
  });
}

/**
 * Decodes an uncompressed Windows bitmap (1, 4, 8, 24 or 32 bits per pixel; BI_RGB or BI_BITFIELDS
 * with the usual masks) to RGBA. sharp/libvips has no BMP loader, and these cover what scanners write.
 * `assertSize` sees the declared size first and throws to refuse it.
 */
export function decodeBmp(
  bytes: Buffer,
  assertSize: (width: number, height: number) => void = () => undefined,
): RgbaImage {
  if (bytes.length < 54 || bytes.toString('latin1', 0, 2) !== 'BM') throw corrupt('missing header');
  const pixelOffset = bytes.readUInt32LE(10);
  const headerSize = bytes.readUInt32LE(14);
  if (headerSize < 40) throw corrupt('OS/2 bitmaps are not supported');
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bitsPerPixel = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height === 0) throw corrupt('zero size');
  // From the header, before anything is allocated: a 41 KB gzipped 1-bit BMP declares 16000×16000.
  assertSize(width, height);
  if (compression !== 0 && !(compression === 3 && (bitsPerPixel === 32 || bitsPerPixel === 16))) {
    throw corrupt(`compression ${compression} is not supported`);
  }
  if (![1, 4, 8, 24, 32].includes(bitsPerPixel)) throw corrupt(`${bitsPerPixel} bits per pixel is not supported`);
  const stride = Math.ceil((width * bitsPerPixel) / 32) * 4;
  if (pixelOffset + stride * height > bytes.length) throw corrupt('pixel data is truncated');

  const paletteStart = 14 + headerSize;
  const paletteSize = bitsPerPixel <= 8 ? bytes.readUInt32LE(46) || 1 << bitsPerPixel : 0;
  const palette = (index: number): [number, number, number] => {
    const at = paletteStart + index * 4;
    if (index >= paletteSize || at + 3 > bytes.length) return [0, 0, 0];
    return [bytes[at + 2], bytes[at + 1], bytes[at]];
  };

  const out = Buffer.alloc(width * height * 4);
  for (let row = 0; row < height; row++) {
    const src = pixelOffset + (topDown ? row : height - 1 - row) * stride;
    for (let x = 0; x < width; x++) {
      let rgb: [number, number, number];
      if (bitsPerPixel === 24 || bitsPerPixel === 32) {
        const at = src + x * (bitsPerPixel / 8);
        rgb = [bytes[at + 2], bytes[at + 1], bytes[at]];
      } else {
        const bitIndex = x * bitsPerPixel;
        const byte = bytes[src + (bitIndex >> 3)];
        const shift = 8 - bitsPerPixel - (bitIndex & 7);
        rgb = palette((byte >> shift) & ((1 << bitsPerPixel) - 1));
      }
      const o = (row * width + x) * 4;
      out[o] = rgb[0];
      out[o + 1] = rgb[1];
      out[o + 2] = rgb[2];
      out[o + 3] = 255;
    }
  }
  return { data: out, width, height };
}
